import AwfulBotTestKit
import Foundation
import GRDB
import Testing

@testable import BotStore

/// The store's half of the outbox's poison-message guard (issue 43): in-flight marks, the deaths counted at start,
/// parked rows, and the migration that adds them (`v8-outboxCrashes`).
@Suite("Outbox crash guard")
struct OutboxCrashGuardTests {
  private let now = Date(timeIntervalSince1970: 1_736_158_200)

  private func row(key: String, room: String = "!room") -> OutboxRecord {
    OutboxRecord(transport: "matrix", room: room, kind: .post, payload: "{}", idempotencyKey: key, createdAt: now)
  }

  /// Queues rows with these keys (room `!room` unless the key starts with `other`) and returns their ids.
  private func queue(_ keys: [String], in database: BotDatabase) throws -> [Int64] {
    try database.writeNow { tx throws -> [Int64] in
      var ids: [Int64] = []
      for key in keys {
        var record = row(key: key, room: key.hasPrefix("other") ? "!other" : "!room")
        try tx.enqueue(&record)
        ids.append(try #require(record.id))
      }
      return ids
    }
  }

  @Test("a process stopped from outside (no crash witnessed) counts no death: however often, the row is sent again")
  func killedFromOutsideCountsNothing() throws {
    let database = try BotDatabase()
    let a = try queue(["a"], in: database)[0]
    // SIGKILLed three times with the row in hand: the marks go, the row stays pending with no death.
    for _ in 1...3 {
      try database.writeNow { tx in _ = try tx.markInFlight(ids: [a], at: now) }
      let found = try database.writeNow { tx in try tx.recoverInterruptedSends(at: now, countingDeaths: false) }
      #expect(found.resent.map(\.id) == [a])
      #expect(found.suspects.isEmpty && found.parked.isEmpty)
    }
    try database.readNow { tx throws in
      #expect(try tx.rowsInFlight().isEmpty)
      #expect(try tx.outboxRow(id: a)?.crashes == 0)
      #expect(try tx.outboxRow(id: a)?.state == .pending)
    }
  }

  @Test("a row still in flight at start counts a death; at the second it is parked and its room's queue goes on")
  func secondDeathParks() throws {
    let database = try BotDatabase()
    let ids = try queue(["a", "b", "other-c"], in: database)
    let (a, b, c) = (ids[0], ids[1], ids[2])

    // The process dies with a and c in hand.
    #expect(try database.writeNow { tx in try tx.markInFlight(ids: [a, c], at: now) } == 2)
    let first = try database.writeNow { tx in try tx.recoverInterruptedSends(at: now) }
    #expect(first.suspects.map(\.id) == [a, c])
    #expect(first.parked.isEmpty)
    try database.readNow { tx throws in
      #expect(try tx.rowsInFlight().isEmpty, "the marks are spent")
      #expect(try tx.outboxRow(id: a)?.crashes == 1)
      #expect(try tx.outboxRow(id: a)?.state == .pending, "one death: sent again")
      #expect(try tx.headOfQueue(transport: "matrix", room: "!room")?.id == a)
    }
    // A start with nothing in flight counts nothing.
    #expect(try database.writeNow { tx in try tx.recoverInterruptedSends(at: now) } == InterruptedSends())

    // c goes out this time; a stops the process again.
    try database.writeNow { tx throws in
      try tx.markInFlight(ids: [a, c], at: now)
      try tx.markDelivered(id: c, receipt: "$c", at: now)
    }
    let later = now.addingTimeInterval(60)
    let second = try database.writeNow { tx in try tx.recoverInterruptedSends(at: later) }
    #expect(second.suspects.isEmpty)
    #expect(second.parked.map(\.id) == [a])
    try database.readNow { tx throws in
      let parked = try #require(try tx.outboxRow(id: a))
      #expect(parked.state == .parked)
      #expect(parked.crashes == 2)
      #expect(parked.lastError == "not sent: it stopped the bot twice")
      #expect(parked.deadLetteredAt == later)
      #expect(parked.inFlightSince == nil)
      #expect(try tx.outboxRow(id: c)?.crashes == 1, "delivered the second time: its one death stays recorded")
      // The rest of the room goes on: b is the head, and the parked row is out of every pending read.
      #expect(try tx.headOfQueue(transport: "matrix", room: "!room")?.id == b)
      #expect(try tx.pendingRows(transport: "matrix", room: "!room", after: nil, limit: 10).map(\.id) == [b])
      #expect(try tx.roomsWithPendingRows(transport: "matrix") == ["!room"])
      let counts = try tx.outboxCounts()
      #expect(counts.parked == 1 && counts.pending == 1 && counts.delivered == 1)
      #expect(try tx.outboxCounts(transport: "matrix", room: "!other").parked == 0)
      #expect(try tx.parkedRows(limit: 5).map(\.id) == [a])
      #expect(try tx.parkedRows(transport: "matrix", room: "!other", limit: 5).isEmpty)
      #expect(try tx.pendingDepthByRoom().map(\.pending) == [1])
    }
  }

  @Test("every recorded outcome clears the in-flight mark, and so does clearInFlight; only pending rows are marked")
  func outcomesClearTheMark() throws {
    let database = try BotDatabase()
    let ids = try queue(["delivered", "retry", "waiting", "failed", "dead", "cancelled"], in: database)
    try database.writeNow { tx throws in
      #expect(try tx.markInFlight(ids: ids, at: now) == ids.count)
      try tx.markDelivered(id: ids[0], receipt: "$x", at: now)
      try tx.markRetry(id: ids[1], error: "rate limited", nextAttemptAt: now.addingTimeInterval(5))
      try tx.markWaiting(id: ids[2], reason: "nobody there", nextAttemptAt: now.addingTimeInterval(5))
      try tx.markFailed(id: ids[3], error: "forbidden", at: now)
      try tx.markDead(id: ids[4], error: "gave up", at: now)
      try tx.clearInFlight(ids: [ids[5]])
      #expect(try tx.rowsInFlight().isEmpty)
      #expect(try tx.recoverInterruptedSends(at: now) == InterruptedSends())
      #expect(try tx.allOutboxRows().allSatisfy { $0.crashes == 0 })
      // A row with an outcome is no longer the dispatcher's to mark.
      #expect(try tx.markInFlight(ids: [ids[0], ids[3], ids[4]], at: now) == 0)
      #expect(try tx.markInFlight(ids: [], at: now) == 0)
    }
  }

  @Test("a restore carries a parked row over as parked, with its deaths")
  func restoreCarriesParkedRows() throws {
    let old = try BotDatabase()
    let oldIDs = try queue(["a"], in: old)
    for _ in 0..<2 {
      try old.writeNow { tx throws in
        try tx.markInFlight(ids: oldIDs, at: now)
        _ = try tx.recoverInterruptedSends(at: now)
      }
    }
    let replaced = try old.readNow { tx in try tx.allOutboxRows() }
    let restored = try BotDatabase()
    _ = try queue(["a"], in: restored)
    try restored.writeNow { tx throws in
      #expect(try tx.carryOverOutcomes(of: replaced) == 1)
      let row = try #require(try tx.outboxRow(idempotencyKey: "a"))
      #expect(row.state == .parked && row.crashes == 2)
    }
  }

  @Test("v8-outboxCrashes: rows queued under schema 7 read as never in flight, with no deaths")
  func migrationFromSchema7() throws {
    let directory = TestScratch.path("awfulbot-crash-migration")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("bot.sqlite").path
    let older = try DatabaseQueue(path: path)
    try BotMigrations.migrator.migrate(older, upTo: "v7-operationsState")
    try older.write { db in
      try db.execute(
        sql: """
          INSERT INTO outbox (transport, room, kind, payload, idempotencyKey, createdAt, state)
          VALUES ('matrix', '!room', 'post', '{}', 'k1', '2025-01-02 15:05:00', 'pending')
          """)
    }
    try older.close()

    let database = try BotDatabase(path: path)
    defer { try? database.close() }
    #expect(try database.appliedMigrations().contains("v8-outboxCrashes"))
    let rows = try database.readNow { tx in try tx.allOutboxRows() }
    #expect(rows.count == 1)
    #expect(rows.first?.crashes == 0 && rows.first?.inFlightSince == nil)
    #expect(try database.writeNow { tx in try tx.recoverInterruptedSends(at: now) } == InterruptedSends())
  }
}
