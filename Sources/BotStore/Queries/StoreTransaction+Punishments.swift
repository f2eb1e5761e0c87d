import Foundation
import GRDB

/// Leper's Colony entries already relayed, by identity.
extension StoreTransaction {
  /// Which of `identities` are not in the seen set.
  package func unseenPunishments(identities: [String]) throws -> Set<String> {
    let seen = try SeenPunishmentRecord.fetchAll(db, keys: identities).map(\.identity)
    return Set(identities).subtracting(seen)
  }

  /// Records an entry as seen; false when it was already.
  @discardableResult
  package func markPunishmentSeen(_ record: SeenPunishmentRecord) throws -> Bool {
    guard try !SeenPunishmentRecord.exists(db, key: record.identity) else { return false }
    try record.insert(db)
    return true
  }

  /// Forgets how a source's first contents were recorded, so the next read records them again without telling
  /// anyone (a source nobody followed for a while is followed again).
  package func clearSeeded(source: String) throws {
    _ = try SeededSourceRecord.deleteOne(db, key: source)
  }
}
