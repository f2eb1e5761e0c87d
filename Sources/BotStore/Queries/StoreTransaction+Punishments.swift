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

  /// Forgets entries given before `cutoff`, except the `kept` newest, so the set stays the size of the pages the
  /// engine reads; returns how many went. An entry forgotten is relayed again only if a read reaches it again,
  /// and a read stops at the first page holding an entry it knows.
  @discardableResult
  package func forgetPunishments(givenBefore cutoff: Date, keepingNewest kept: Int) throws -> Int {
    try db.execute(
      sql: """
        DELETE FROM seenPunishment WHERE punishedAt < ? AND identity NOT IN
          (SELECT identity FROM seenPunishment ORDER BY punishedAt DESC, identity LIMIT ?)
        """,
      arguments: [cutoff, max(kept, 0)])
    return db.changesCount
  }

  /// Every entry known, oldest first (for `awfulbot export`).
  package func allSeenPunishments() throws -> [SeenPunishmentRecord] {
    try SeenPunishmentRecord.order(Column("punishedAt"), Column("identity")).fetchAll(db)
  }

  /// Forgets how a source's first contents were recorded, so the next read records them again without telling
  /// anyone (a source nobody followed for a while is followed again).
  package func clearSeeded(source: String) throws {
    _ = try SeededSourceRecord.deleteOne(db, key: source)
  }
}
