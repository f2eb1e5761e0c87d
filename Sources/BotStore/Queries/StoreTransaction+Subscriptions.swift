import Foundation
import GRDB

extension StoreTransaction {
  package func subscriptions(transport: String, room: String) throws -> [SubscriptionRecord] {
    try SubscriptionRecord
      .filter(Column("transport") == transport && Column("room") == room)
      .order(Column("id"))
      .fetchAll(db)
  }

  package func subscriptions(kind: SubscriptionKind) throws -> [SubscriptionRecord] {
    try SubscriptionRecord.filter(Column("kind") == kind).order(Column("id")).fetchAll(db)
  }

  package func allSubscriptions() throws -> [SubscriptionRecord] {
    try SubscriptionRecord.order(Column("id")).fetchAll(db)
  }

  package func subscription(id: Int64) throws -> SubscriptionRecord? {
    try SubscriptionRecord.fetchOne(db, key: id)
  }

  /// Inserts the subscription, or updates the filters of the room's existing one for the same target.
  /// Returns the stored row (with its id) and whether it was new.
  package func upsertSubscription(_ record: SubscriptionRecord) throws -> (record: SubscriptionRecord, isNew: Bool) {
    if var existing = try SubscriptionRecord.filter(
      Column("transport") == record.transport && Column("room") == record.room && Column("kind") == record.kind
        && Column("argument") == record.argument
    ).fetchOne(db) {
      existing.includeAuthors = record.includeAuthors
      existing.excludeAuthors = record.excludeAuthors
      existing.keywords = record.keywords
      existing.opOnly = record.opOnly
      try existing.update(db)
      return (existing, false)
    }
    var inserted = record
    inserted.id = nil
    try inserted.insert(db)
    return (inserted, true)
  }

  /// Re-inserts a subscription with its old id (undo of an unsubscribe).
  package func restoreSubscription(_ record: SubscriptionRecord) throws {
    var copy = record
    try copy.insert(db, onConflict: .ignore)
  }

  @discardableResult
  package func deleteSubscription(id: Int64) throws -> Bool {
    try SubscriptionRecord.deleteOne(db, key: id)
  }
}
