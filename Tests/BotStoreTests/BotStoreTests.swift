import AwfulBotTestKit
import BotStore
import Foundation
import GRDB
import Testing

@Suite("Bot store")
struct BotStoreTests {
  private let now = Date(timeIntervalSince1970: 1_736_158_200)

  private func temporaryPath() throws -> String {
    let directory = TestScratch.path("awfulbot-store")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent("bot.sqlite").path
  }

  private func removeDirectory(of path: String) {
    try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
  }

  private func row(key: String, room: String = "!room") -> OutboxRecord {
    OutboxRecord(
      transport: "matrix", room: room, kind: .post, payload: "{}", idempotencyKey: key, createdAt: now)
  }

  @Test("a database that cannot be opened on a full disk says the disk is full; with space left, SQLite's error stands")
  func openingOnAFullDisk() throws {
    let path = try temporaryPath()
    defer { removeDirectory(of: path) }
    // Not a database: opening fails whatever the disk, as the journal files' creation does on a full one.
    try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
    #expect(throws: BotStoreError.diskFullAtOpen(path: path, freeBytes: 4096)) {
      try BotDatabase(path: path, freeSpace: { _ in 4096 })
    }
    do {
      _ = try BotDatabase(path: path, freeSpace: { _ in 10 << 30 })
      Issue.record("a file that is not a database opened")
    } catch {
      #expect(!BotStoreError.isStorageFull(error), "\(error)")
    }
    let sentence = BotStoreError.diskFullAtOpen(path: "/var/lib/awfulbot/awfulbot.sqlite", freeBytes: 8192).description
    #expect(
      sentence.hasPrefix(
        "Cannot open the database at /var/lib/awfulbot/awfulbot.sqlite: the disk holding it is full (8 KiB free)"))
  }

  @Test("a backup that fails on a full disk says so and leaves no partial file")
  func backupOnAFullDisk() throws {
    let path = try temporaryPath()
    defer { removeDirectory(of: path) }
    try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
    let destination = path + ".backup"
    #expect(throws: BotStoreError.diskFullForBackup(path: destination, freeBytes: 0, isDatabase: false)) {
      try OnlineBackup.copy(databaseAt: path, to: destination, freeSpace: { _ in 0 })
    }
    // Room where the copy goes, none beside the database: that disk is named.
    #expect(throws: BotStoreError.diskFullForBackup(path: path, freeBytes: 0, isDatabase: true)) {
      try OnlineBackup.copy(databaseAt: path, to: destination, freeSpace: { $0 == path ? 0 : 10 << 30 })
    }
    #expect(!FileManager.default.fileExists(atPath: destination + ".partial"))
    #expect(!FileManager.default.fileExists(atPath: destination))
  }

  @Test("migrations apply in memory and on a file, and again on reopening")
  func migrations() throws {
    #expect(
      try BotDatabase().appliedMigrations() == [
        "v1", "v2-privateMessages", "v3-outboxDates", "v4-replies", "v5-pollState", "v6-chatState",
        "v7-operationsState", "v8-outboxCrashes", "v9-lepers", "v10-roomDisplay",
      ])
    let path = try temporaryPath()
    defer { removeDirectory(of: path) }
    try BotDatabase(path: path).close()
    let reopened = try BotDatabase(path: path)
    #expect(
      try reopened.appliedMigrations() == [
        "v1", "v2-privateMessages", "v3-outboxDates", "v4-replies", "v5-pollState", "v6-chatState",
        "v7-operationsState", "v8-outboxCrashes", "v9-lepers", "v10-roomDisplay",
      ])
  }

  @Test("a database a newer build migrated is refused with both schemas named, and left as it was")
  func newerSchemaRefused() throws {
    let path = try temporaryPath()
    defer { removeDirectory(of: path) }
    try BotDatabase(path: path).close()
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9-fromTheFuture')")
    }
    try queue.close()
    let error = try #require(throws: BotStoreError.self) { try BotDatabase(path: path) }
    #expect(error == .newerSchema(path: path, databaseSchema: "v9-fromTheFuture", knownSchema: "v10-roomDisplay"))
    #expect(
      error.description
        == "The database at \(path) has schema v9-fromTheFuture, written by a newer AwfulBot than this one, which "
        + "knows schema up to v10-roomDisplay: start the newer build again, or restore a backup this build made "
        + "(awfulbot restore); nothing was changed.")
    let after = try DatabaseQueue(path: path)
    #expect(try after.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }.count == 11)
  }

  @Test("the database file is created with mode 0600 and uses WAL")
  func fileModeAndWAL() throws {
    let path = try temporaryPath()
    defer { removeDirectory(of: path) }
    let database = try BotDatabase(path: path)
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    #expect(mode & 0o777 == 0o600)
    #expect(try database.journalMode() == "wal")
  }

  @Test("an existing file with a wider mode is narrowed to 0600")
  func narrowsExistingFile() throws {
    let path = try temporaryPath()
    defer { removeDirectory(of: path) }
    #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644]))
    _ = try BotDatabase(path: path)
    let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
    #expect(mode.map { $0 & 0o777 } == 0o600)
  }

  @Test("an idempotency key is queued once")
  func idempotencyKeyIsUnique() throws {
    let database = try BotDatabase()
    try database.writeNow { tx throws in
      var first = row(key: "matrix|!room|post:1")
      var again = row(key: "matrix|!room|post:1")
      #expect(try tx.enqueue(&first))
      #expect(try !tx.enqueue(&again))
    }
    #expect(try database.readNow { try $0.allOutboxRows().count } == 1)
  }

  @Test("the cursor advance and its outbox rows commit together or not at all")
  func cursorAndOutboxInOneTransaction() throws {
    let database = try BotDatabase()
    try database.writeNow { tx in try tx.save(ThreadRecord(id: "10", cursorIndex: 5, firstSeenAt: now, updatedAt: now))
    }

    struct Crash: Error {}
    #expect(throws: Crash.self) {
      try database.writeNow { tx throws in
        var thread = try #require(try tx.thread(id: "10"))
        thread.cursorIndex = 7
        try tx.save(thread)
        var rowOne = row(key: "k6")
        var rowTwo = row(key: "k7")
        try tx.enqueue(&rowOne)
        try tx.enqueue(&rowTwo)
        throw Crash()
      }
    }
    #expect(try database.readNow { try $0.thread(id: "10")?.cursorIndex } == 5)
    #expect(try database.readNow { try $0.allOutboxRows().isEmpty })

    try database.writeNow { tx throws in
      var thread = try #require(try tx.thread(id: "10"))
      thread.cursorIndex = 7
      try tx.save(thread)
      var rowOne = row(key: "k6")
      try tx.enqueue(&rowOne)
    }
    #expect(try database.readNow { try $0.thread(id: "10")?.cursorIndex } == 7)
    #expect(try database.readNow { try $0.allOutboxRows().map(\.idempotencyKey) } == ["k6"])
  }

  @Test("the queue head is the oldest pending row of the room; marks change state, rows are kept")
  func queueHeadAndMarks() throws {
    let database = try BotDatabase()
    let ids = try database.writeNow { tx throws -> [Int64] in
      var rows = [row(key: "a"), row(key: "b"), row(key: "c", room: "!other")]
      for index in rows.indices { try tx.enqueue(&rows[index]) }
      return rows.compactMap(\.id)
    }
    try database.writeNow { tx throws in
      #expect(try tx.headOfQueue(transport: "matrix", room: "!room")?.idempotencyKey == "a")
      try tx.markDelivered(id: ids[0], receipt: "$event", at: now)
      #expect(try tx.headOfQueue(transport: "matrix", room: "!room")?.idempotencyKey == "b")
      try tx.markRetry(id: ids[1], error: "rate limited", nextAttemptAt: now.addingTimeInterval(30))
      #expect(try tx.earliestRetry(transport: "matrix") == now.addingTimeInterval(30))
      try tx.markDead(id: ids[1], error: "gave up", at: now)
      try tx.markFailed(id: ids[2], error: "forbidden", at: now)
      let counts = try tx.outboxCounts(transport: "matrix")
      #expect(counts.delivered == 1 && counts.dead == 1 && counts.failed == 1 && counts.pending == 0)
      #expect(try tx.allOutboxRows().count == 3)
      #expect(try tx.outboxRow(id: ids[0])?.receipt == "$event")
      #expect(try tx.outboxRow(id: ids[1])?.attempts == 2)
    }
  }

  @Test("pending rows of a room come in id order, in batches after a given row, without other rooms or states")
  func pendingRowBatches() throws {
    let database = try BotDatabase()
    let ids = try database.writeNow { tx throws -> [Int64] in
      var rows = [row(key: "a"), row(key: "x", room: "!other"), row(key: "b"), row(key: "c"), row(key: "d")]
      for index in rows.indices { try tx.enqueue(&rows[index]) }
      return rows.compactMap(\.id)
    }
    try database.writeNow { tx throws in
      try tx.markDelivered(id: ids[2], receipt: "$b", at: now)
      let first = try tx.pendingRows(transport: "matrix", room: "!room", after: nil, limit: 2)
      #expect(first.map(\.idempotencyKey) == ["a", "c"])
      let next = try tx.pendingRows(transport: "matrix", room: "!room", after: first.last?.id, limit: 2)
      #expect(next.map(\.idempotencyKey) == ["d"])
      #expect(try tx.pendingRows(transport: "matrix", room: "!room", after: ids[4], limit: 2).isEmpty)
    }
  }

  @Test("subscriptions upsert per target and cascade with their room")
  func subscriptions() throws {
    let database = try BotDatabase()
    try database.writeNow { tx throws in
      _ = try tx.ensureRoom(transport: "irc", room: "#goons", now: now)
      let first = try tx.upsertSubscription(
        SubscriptionRecord(transport: "irc", room: "#goons", kind: .thread, argument: "5", createdAt: now))
      let second = try tx.upsertSubscription(
        SubscriptionRecord(
          transport: "irc", room: "#goons", kind: .thread, argument: "5", keywords: ["x"], opOnly: true,
          createdAt: now))
      #expect(first.isNew)
      #expect(!second.isNew)
      #expect(first.record.id == second.record.id)
      let stored = try tx.subscriptions(transport: "irc", room: "#goons")
      #expect(stored.count == 1)
      #expect(stored.first?.keywords == ["x"])
      #expect(stored.first?.opOnly == true)
    }
  }

  @Test("alerts compare usernames case-insensitively; transport state and cookies round-trip")
  func alertsAndKeyValue() throws {
    let database = try BotDatabase()
    try database.writeNow { tx throws in
      _ = try tx.ensureRoom(transport: "irc", room: "#goons", now: now)
      #expect(try tx.insertAlert(AlertRecord(transport: "irc", room: "#goons", username: "Alice", createdAt: now)))
      #expect(try !tx.insertAlert(AlertRecord(transport: "irc", room: "#goons", username: "alice", createdAt: now)))
      #expect(try tx.deleteAlert(transport: "irc", room: "#goons", username: "ALICE"))
      #expect(try tx.alerts(transport: "irc", room: "#goons").isEmpty)

      try tx.setTransportState("s123", transport: "matrix", key: "since", now: now)
      #expect(try tx.transportState(transport: "matrix", key: "since") == "s123")
      #expect(try tx.transportState(transport: "other", key: "since") == nil)
      try tx.setTransportState(nil, transport: "matrix", key: "since", now: now)
      #expect(try tx.transportState(transport: "matrix", key: "since") == nil)
      // Removal by prefix stays within the transport and the prefix (a `%` or `_` in it is no pattern).
      for key in ["old:a", "old:b", "older", "kept"] {
        try tx.setTransportState("v", transport: "matrix", key: key, now: now)
      }
      try tx.setTransportState("v", transport: "other", key: "old:a", now: now)
      try tx.setTransportState("v", transport: "matrix", key: "o%d:x", now: now)
      #expect(try tx.removeTransportState(transport: "matrix", keyPrefix: "old:") == 2)
      #expect(try tx.removeTransportState(transport: "matrix", keyPrefix: "o%") == 1)
      #expect(try tx.transportState(transport: "matrix", key: "older") == "v")
      #expect(try tx.transportState(transport: "matrix", key: "kept") == "v")
      #expect(try tx.transportState(transport: "other", key: "old:a") == "v")
      try tx.replaceForumCookies([ForumCookieRecord(name: "bbuserid", domain: ".example.com", value: "1")])
      #expect(try tx.forumCookies().map(\.name) == ["bbuserid"])
    }
  }

  @Test("two connections on one file see each other's commits")
  func twoDatabasesOnOneFile() async throws {
    let path = try temporaryPath()
    defer { removeDirectory(of: path) }
    let first = try BotDatabase(path: path)
    let second = try BotDatabase(path: path)
    try await first.write { tx in
      var record = OutboxRecord(
        transport: "matrix", room: "!room", kind: .post, payload: "{}", idempotencyKey: "k",
        createdAt: Date(timeIntervalSince1970: 0))
      try tx.enqueue(&record)
    }
    #expect(try await second.read { tx in try tx.allOutboxRows().count } == 1)
  }
}
