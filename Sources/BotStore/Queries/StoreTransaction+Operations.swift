import Foundation
import GRDB

/// Queries for the operator's tools: `status`, `export` and `import`.
extension StoreTransaction {
  /// When each transport last had a message delivered (its last confirmed contact with the chat service).
  package func lastDeliveryByTransport() throws -> [String: Date] {
    var result: [String: Date] = [:]
    for row in try Row.fetchAll(
      db,
      sql: "SELECT transport, MAX(deliveredAt) AS last FROM outbox WHERE state = 'delivered' GROUP BY transport")
    {
      if let date: Date = row["last"] { result[row["transport"]] = date }
    }
    return result
  }

  /// Rows given up on (dead letters) or refused for good, newest first.
  package func undeliverableRows(limit: Int) throws -> [OutboxRecord] {
    try OutboxRecord.filter([OutboxState.dead.rawValue, OutboxState.failed.rawValue].contains(Column("state")))
      .order(Column("id").desc).limit(limit).fetchAll(db)
  }

  package func allWatchedForums() throws -> [WatchedForumRecord] {
    try WatchedForumRecord.order(Column("forumID")).fetchAll(db)
  }

  package func allSeenAnnouncements() throws -> [SeenAnnouncementRecord] {
    try SeenAnnouncementRecord.order(Column("seenAt"), Column("hash")).fetchAll(db)
  }

  /// Replaces or adds a thread row whole (import: the cursor comes from the other host).
  package func upsertThread(_ thread: ThreadRecord) throws {
    try thread.save(db)
  }

  /// Replaces or adds an alert (import).
  package func upsertAlert(_ alert: AlertRecord) throws {
    try alert.save(db)
  }
}
