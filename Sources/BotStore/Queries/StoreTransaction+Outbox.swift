import Foundation
import GRDB

/// Rows per state for a room or a transport.
package struct OutboxCounts: Sendable, Hashable {
  package var pending = 0
  package var delivered = 0
  package var failed = 0
  package var dead = 0
  package var parked = 0
  package init() {}
}

/// Pending rows of one room.
package struct RoomDepth: Sendable, Hashable {
  package var transport: String
  package var room: String
  package var pending: Int
}

extension StoreTransaction {
  /// Queues a row. Returns false (and changes nothing) when a row with the same idempotency key exists.
  @discardableResult
  package func enqueue(_ record: inout OutboxRecord) throws -> Bool {
    record.id = nil
    try record.insert(db, onConflict: .ignore)
    return db.changesCount > 0
  }

  package func outboxRow(id: Int64) throws -> OutboxRecord? {
    try OutboxRecord.fetchOne(db, key: id)
  }

  package func outboxRow(idempotencyKey: String) throws -> OutboxRecord? {
    try OutboxRecord.filter(Column("idempotencyKey") == idempotencyKey).fetchOne(db)
  }

  /// The row queued just before `id` in the same room, whatever its state. Rows of a room go out in id order, so
  /// for the head of the queue this is the last thing the room was sent (or refused), nothing pending.
  package func outboxRow(before id: Int64, transport: String, room: String) throws -> OutboxRecord? {
    try OutboxRecord
      .filter(Column("transport") == transport && Column("room") == room && Column("id") < id)
      .order(Column("id").desc)
      .fetchOne(db)
  }

  /// Rewrites a pending row's message before it is sent (a summary turned into an edit), so a resend after a crash
  /// sends exactly what was decided the first time. Delivered rows are left as they are.
  package func updatePendingPayload(id: Int64, payload: String) throws {
    try db.execute(
      sql: "UPDATE outbox SET payload = ? WHERE id = ? AND state = 'pending'", arguments: [payload, id])
  }

  /// Rooms of a transport with pending rows.
  package func roomsWithPendingRows(transport: String) throws -> [String] {
    try String.fetchAll(
      db, sql: "SELECT DISTINCT room FROM outbox WHERE transport = ? AND state = 'pending' ORDER BY room",
      arguments: [transport])
  }

  /// The oldest pending row of the room: the only one that may be in flight, so order is kept.
  package func headOfQueue(transport: String, room: String) throws -> OutboxRecord? {
    try OutboxRecord
      .filter(
        Column("transport") == transport && Column("room") == room && Column("state") == OutboxState.pending.rawValue
      )
      .order(Column("id"))
      .fetchOne(db)
  }

  /// Up to `limit` pending rows of the room after row `after` (nil: from the head), oldest first. The dispatcher reads
  /// a room's queue in such batches; `after` skips rows it has sent whose acknowledgement is still being written.
  package func pendingRows(transport: String, room: String, after: Int64?, limit: Int) throws -> [OutboxRecord] {
    var request = OutboxRecord.filter(
      Column("transport") == transport && Column("room") == room && Column("state") == OutboxState.pending.rawValue)
    if let after { request = request.filter(Column("id") > after) }
    return try request.order(Column("id")).limit(limit).fetchAll(db)
  }

  /// The earliest retry time among pending rows of the transport, to know how long the dispatcher may sleep.
  package func earliestRetry(transport: String) throws -> Date? {
    try Date.fetchOne(
      db,
      sql:
        "SELECT MIN(nextAttemptAt) FROM outbox WHERE transport = ? AND state = 'pending' AND nextAttemptAt IS NOT NULL",
      arguments: [transport])
  }

  package func markDelivered(id: Int64, receipt: String, at date: Date) throws {
    try db.execute(
      sql: """
        UPDATE outbox SET state = 'delivered', deliveredAt = ?, receipt = ?, attempts = attempts + 1, lastError = NULL,
        inFlightSince = NULL WHERE id = ?
        """,
      arguments: [date, receipt, id])
  }

  package func markRetry(id: Int64, error: String, nextAttemptAt: Date) throws {
    try db.execute(
      sql:
        "UPDATE outbox SET attempts = attempts + 1, lastError = ?, nextAttemptAt = ?, inFlightSince = NULL WHERE id = ?",
      arguments: [error, nextAttemptAt, id])
  }

  /// The room's reader is away: the row waits until `nextAttemptAt` without counting an attempt.
  package func markWaiting(id: Int64, reason: String, nextAttemptAt: Date) throws {
    try db.execute(
      sql: "UPDATE outbox SET lastError = ?, nextAttemptAt = ?, inFlightSince = NULL WHERE id = ?",
      arguments: [reason, nextAttemptAt, id])
  }

  /// The transport said it will never succeed; the row keeps the reason.
  package func markFailed(id: Int64, error: String, at date: Date) throws {
    try db.execute(
      sql: """
        UPDATE outbox SET state = 'failed', attempts = attempts + 1, lastError = ?, deadLetteredAt = ?,
        inFlightSince = NULL WHERE id = ?
        """,
      arguments: [error, date, id])
  }

  package func markDead(id: Int64, error: String, at date: Date) throws {
    try db.execute(
      sql: """
        UPDATE outbox SET state = 'dead', attempts = attempts + 1, lastError = ?, deadLetteredAt = ?,
        inFlightSince = NULL WHERE id = ?
        """,
      arguments: [error, date, id])
  }

  /// Counts per state, optionally for one transport and room.
  package func outboxCounts(transport: String? = nil, room: String? = nil) throws -> OutboxCounts {
    var request = OutboxRecord.all()
    if let transport { request = request.filter(Column("transport") == transport) }
    if let room { request = request.filter(Column("room") == room) }
    let rows = try Row.fetchAll(
      db, request.select(Column("state"), count(Column("id")).forKey("n")).group(Column("state")))
    var counts = OutboxCounts()
    for row in rows {
      let n: Int = row["n"]
      switch OutboxState(rawValue: row["state"]) {
      case .pending: counts.pending = n
      case .delivered: counts.delivered = n
      case .failed: counts.failed = n
      case .dead: counts.dead = n
      case .parked: counts.parked = n
      case nil: break
      }
    }
    return counts
  }

  /// Pending rows per room, deepest first.
  package func pendingDepthByRoom() throws -> [RoomDepth] {
    try Row.fetchAll(
      db,
      sql: """
        SELECT transport, room, COUNT(*) AS n FROM outbox WHERE state = 'pending'
        GROUP BY transport, room ORDER BY n DESC, transport, room
        """
    ).map { RoomDepth(transport: $0["transport"], room: $0["room"], pending: $0["n"]) }
  }

  /// Rows of a room about one post (for `why`).
  package func outboxRows(postID: String, transport: String, room: String) throws -> [OutboxRecord] {
    try OutboxRecord
      .filter(Column("postID") == postID && Column("transport") == transport && Column("room") == room)
      .order(Column("id"))
      .fetchAll(db)
  }

  /// The relays of single posts of a thread (`post` rows, every room) whose post id lies from `first` to `last`: the
  /// ones a page the bot read again may show edited or deleted.
  package func postRelays(threadID: String, fromPostID first: Int, toPostID last: Int) throws -> [OutboxRecord] {
    try OutboxRecord.fetchAll(
      db,
      sql: """
        SELECT * FROM outbox WHERE kind = 'post' AND threadID = ?
        AND CAST(postID AS INTEGER) BETWEEN ? AND ? ORDER BY id
        """, arguments: [threadID, first, last])
  }

  /// All rows of a room, oldest first (tests, `status`).
  package func outboxRows(transport: String, room: String) throws -> [OutboxRecord] {
    try OutboxRecord.filter(Column("transport") == transport && Column("room") == room).order(Column("id"))
      .fetchAll(db)
  }

  package func allOutboxRows() throws -> [OutboxRecord] {
    try OutboxRecord.order(Column("id")).fetchAll(db)
  }

  /// Dead-lettered or failed rows of a room, newest first.
  package func undeliverableRows(transport: String, room: String, limit: Int) throws -> [OutboxRecord] {
    try OutboxRecord
      .filter(Column("transport") == transport && Column("room") == room)
      .filter([OutboxState.dead.rawValue, OutboxState.failed.rawValue].contains(Column("state")))
      .order(Column("id").desc)
      .limit(limit)
      .fetchAll(db)
  }
}
