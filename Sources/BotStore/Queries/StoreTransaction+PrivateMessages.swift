import Foundation
import GRDB

/// Private messages already told, by id.
extension StoreTransaction {
  /// Which of `ids` are not in the seen set.
  package func unseenPrivateMessages(ids: [String]) throws -> Set<String> {
    let seen = try SeenPrivateMessageRecord.fetchAll(db, keys: ids).map(\.id)
    return Set(ids).subtracting(seen)
  }

  package func markPrivateMessageSeen(id: String, at date: Date) throws {
    try SeenPrivateMessageRecord(id: id, seenAt: date).insert(db, onConflict: .ignore)
  }
}
