import AwfulBotApp
import AwfulBotAppTestKit
import AwfulBotTestKit
import BotStore
import ChatBridge
import ForumsClient
import Foundation
import Testing

/// `status`, `export`, `import` and `migrate` on real database files, the first while a writer holds it open as the
/// daemon would.
@Suite("ops: status, export, import, migrate")
struct OpsDatabaseTests {
  let directory: URL

  init() throws {
    directory = TestScratch.path("awfulbot-ops-db")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  /// A database with something in every table an export carries, a failing source, a dead letter and a pending row.
  func populatedDatabase(at path: String) throws -> BotDatabase {
    let database = try BotDatabase(path: path)
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    try database.writeNow { tx in
      var room = try tx.ensureRoom(transport: "matrix", room: "!goons:example.org", now: now)
      room.mode = .summary
      room.summaryThreshold = 5
      room.quietHours = "23:00-07:00"
      try tx.save(room)
      _ = try tx.ensureRoom(transport: "irc", room: "#goons", now: now)
      _ = try tx.upsertSubscription(
        SubscriptionRecord(
          transport: "matrix", room: "!goons:example.org", kind: .thread, argument: "3600001",
          includeAuthors: ["Lowtax"], keywords: ["swift"], opOnly: true, createdAt: now, createdBy: "@me:example.org"))
      _ = try tx.upsertSubscription(
        SubscriptionRecord(transport: "irc", room: "#goons", kind: .bookmarks, createdAt: now))
      try tx.insertAlert(AlertRecord(transport: "irc", room: "#goons", username: "Lowtax", createdAt: now))
      try tx.save(
        ThreadRecord(
          id: "3600001", title: "AwfulBot development thread", forumID: "46", replyCount: 93, cursorIndex: 94,
          cursorPostID: "512000094", isBookmarked: true, star: 0, firstSeenAt: now, updatedAt: now))
      try tx.save(WatchedForumRecord(forumID: "46", title: "Games", highestThreadID: 3_600_010, updatedAt: now))
      try tx.save(
        BookmarksSweepRecord(startedAt: now.addingTimeInterval(-180), nextPage: 120, unlisted: [], updatedAt: now))
      try tx.markAnnouncementSeen(SeenAnnouncementRecord(hash: "abc123", title: "Rules", seenAt: now))
      try tx.markPunishmentSeen(
        SeenPunishmentRecord(identity: "colony-1", punishedAt: now.addingTimeInterval(-60), seenAt: now))
      try tx.markSeeded(source: "lepers", scheme: "1", at: now)
      try tx.markSeeded(source: "announcements", scheme: "2", at: now)
      try tx.markSeeded(source: "privateMessages", scheme: "ids", at: now)
      try tx.save(
        SourceHealthRecord(
          source: "bookmarks", lastAttemptAt: now, lastSuccessAt: now.addingTimeInterval(-600), lastErrorAt: now,
          lastError: "The forum database is unavailable", consecutiveErrors: 3, totalErrors: 4, totalPolls: 40,
          nextAttemptAt: now.addingTimeInterval(240)))
      var dead = OutboxRecord(
        transport: "irc", room: "#goons", kind: .post, payload: "{}", idempotencyKey: "dead-1", createdAt: now,
        postID: "512000090")
      _ = try tx.enqueue(&dead)
      guard let deadID = dead.id else { throw CocoaError(.coderInvalidValue) }
      try tx.markDead(id: deadID, error: "temporary failure: timeout", at: now)
      var pending = OutboxRecord(
        transport: "matrix", room: "!goons:example.org", kind: .post, payload: "{}", idempotencyKey: "pending-1",
        createdAt: now)
      _ = try tx.enqueue(&pending)
    }
    return database
  }

  @Test("status reads a database the daemon holds open: heartbeat, login, sources, outbox, transports")
  func statusWhileRunning() async throws {
    let databasePath = path("awfulbot.sqlite")
    let database = try populatedDatabase(at: databasePath)
    // What the console tells on its event stream as it starts.
    let connections = TransportConnections()
    connections.record(.connected, transport: "console")
    let daemon = OpsDaemonStandIn(
      database: database, transports: [ConsoleTransport(name: "console", input: Pipe().fileHandleForReading)],
      connections: connections)
    await daemon.monitor.beat()

    let report = try StatusReport.read(databasePath: databasePath, transportNames: ["matrix", "irc", "console"])
    #expect(report.daemon?.state == .running)
    #expect(report.daemon?.pid == ProcessInfo.processInfo.processIdentifier)
    #expect(report.forum.hasSession == false)
    #expect(report.forum.loggedInAtLastHeartbeat == false)
    let bookmarks = try #require(report.sources.first { $0.source == "bookmarks" })
    #expect(bookmarks.consecutiveErrors == 3)
    #expect(bookmarks.lastError == "The forum database is unavailable")
    #expect(report.deadLetters == 1)
    #expect(report.pending == 1)
    #expect(report.outboxDepth.map { "\($0.transport) \($0.room) \($0.pending)" } == ["matrix !goons:example.org 1"])
    #expect(report.recentDeadLetters.first?.error == "temporary failure: timeout")
    #expect(report.transports.map(\.name) == ["console", "irc", "matrix"])
    #expect(report.transports.first { $0.name == "console" }?.connected == true)
    #expect(report.transports.first { $0.name == "matrix" }?.connected == nil)
    #expect(report.rooms == 2)
    #expect(report.subscriptions == 2)
    #expect(report.needsAttention)

    let text = report.text(now: Date())
    #expect(text.contains("daemon: ✓ running"))
    #expect(text.contains("forum login: ✗ no session"))
    #expect(text.contains("✗ bookmarks:"))
    #expect(text.contains("full sweep in progress, begun "))
    #expect(text.contains(", a page at a time between checks: page 120 next"))
    #expect(text.contains("backing off after 3 error(s)"))
    #expect(text.contains("1 pending, 0 delivered, 0 held, 0 failed, 1 dead letters"))
    #expect(text.contains("matrix !goons:example.org: 1 waiting"))
    #expect(text.contains("✗ dead irc #goons post post 512000090"))
    #expect(text.contains("✓ console: connected"))
    try await daemon.shutdown()
    try database.close()
  }

  @Test("status of a database an older build wrote names the migrations still to run instead of a missing table")
  func statusOfOlderSchema() throws {
    let databasePath = path("awfulbot.sqlite")
    try populatedDatabase(at: databasePath).close()
    // This build as a newer one, with a migration the database has not run.
    let known = DatabaseFile.knownMigrations
    let error = try #require(throws: BotStoreError.self) {
      try StatusReport.read(databasePath: databasePath, knownMigrations: known + ["v99-future"])
    }
    #expect(error == .olderSchema(path: databasePath, databaseSchema: known.last ?? "", pending: ["v99-future"]))
    #expect(error.description.contains("run `awfulbot migrate`"), "\(error)")
    #expect(try StatusReport.read(databasePath: databasePath).pendingMigrations.isEmpty)
  }

  @Test("status says when there is no database, and when the daemon stopped")
  func statusEdges() async throws {
    #expect(throws: BotStoreError.noDatabase(path: path("missing.sqlite"))) {
      try StatusReport.read(databasePath: path("missing.sqlite"))
    }
    let databasePath = path("fresh.sqlite")
    let database = try BotDatabase(path: databasePath)
    let fresh = try StatusReport.read(databasePath: databasePath)
    #expect(fresh.daemon == nil)
    #expect(fresh.text().contains("daemon: - no heartbeat recorded"))
    let daemon = OpsDaemonStandIn(database: database, transports: [], interval: .milliseconds(10))
    let running = Task { try await daemon.monitor.run() }
    #expect(
      try await eventually(timeout: .seconds(30), every: .milliseconds(100)) {
        try StatusReport.read(databasePath: databasePath).daemon != nil
      })
    running.cancel()
    _ = await running.result
    #expect(try StatusReport.read(databasePath: databasePath).daemon?.state == .stopped)
    try await daemon.shutdown()
    try database.close()
  }

  @Test("export, import into a new database, export again: the same rooms, filters and cursors")
  func roundTrip() async throws {
    let source = try populatedDatabase(at: path("old-host.sqlite"))
    let exported = try DataTransfer.export(
      databasePath: path("old-host.sqlite"), now: Date(timeIntervalSince1970: 1_790_000_123.25))
    #expect(exported.rooms.count == 2)
    #expect(exported.subscriptions.first { $0.kind == .thread }?.includeAuthors == ["Lowtax"])
    #expect(exported.threads.first?.cursorIndex == 94)
    #expect(exported.seenPunishments?.map(\.identity) == ["colony-1"])
    // The inbox's seen set is not exported, so neither is its seeding (the new host records the inbox afresh).
    #expect(exported.seededSources?.map(\.source) == ["announcements", "lepers"])

    let data = try exported.encoded()
    let decoded = try ExportDocument.decode(data)
    #expect(decoded == exported)

    try await DataTransfer.importDocument(decoded, intoDatabaseAt: path("new-host.sqlite"))
    let again = try DataTransfer.export(databasePath: path("new-host.sqlite"), now: exported.exportedAt)
    #expect(again == exported)

    // Importing twice changes nothing; importing into a database with rooms of its own keeps them.
    try await DataTransfer.importDocument(decoded, intoDatabaseAt: path("new-host.sqlite"))
    #expect(try DataTransfer.export(databasePath: path("new-host.sqlite"), now: exported.exportedAt) == exported)
    let other = try BotDatabase(path: path("busy-host.sqlite"))
    try other.writeNow { tx in _ = try tx.ensureRoom(transport: "console", room: "console", now: Date()) }
    try await DataTransfer.importDocument(decoded, into: other)
    let merged = try DataTransfer.export(databasePath: path("busy-host.sqlite"))
    #expect(merged.rooms.count == 3)
    #expect(merged.subscriptions.count == 2)
    try other.close()
    try source.close()
  }

  @Test("a version 1 export (before the Colony) still imports, and leaves the new host to seed what it did not carry")
  func versionOneExport() async throws {
    let source = try populatedDatabase(at: path("v1-host.sqlite"))
    try source.close()
    let exported = try DataTransfer.export(databasePath: path("v1-host.sqlite"))
    let json = try JSONSerialization.jsonObject(with: try exported.encoded()) as? [String: Any]
    var old = try #require(json)
    old["version"] = 1
    old["seenPunishments"] = nil
    old["seededSources"] = nil
    let decoded = try ExportDocument.decode(try JSONSerialization.data(withJSONObject: old))
    #expect(decoded.seenPunishments == nil && decoded.seededSources == nil)
    try await DataTransfer.importDocument(decoded, intoDatabaseAt: path("v2-host.sqlite"))
    let again = try DataTransfer.export(databasePath: path("v2-host.sqlite"))
    #expect(again.seenAnnouncements == exported.seenAnnouncements)
    #expect(again.seenPunishments == [] && again.seededSources == [])
    #expect(
      again.summary
        == "2 rooms, 2 subscriptions, 1 alert, 1 thread cursor, 1 watched forum, 1 seen announcement, "
        + "0 seen Leper's Colony entries")
  }

  @Test("an export from something else, or from a newer version, is refused")
  func badExports() throws {
    #expect(throws: DataTransferError.self) { try ExportDocument.decode(Data("{}".utf8)) }
    var newer = try DataTransfer.export(databasePath: BotDatabase(path: path("empty.sqlite")).path ?? "")
    newer.version = ExportDocument.currentVersion + 1
    let error = #expect(throws: DataTransferError.self) { try ExportDocument.decode(try newer.encoded()) }
    #expect(error.map { "\($0)" }?.contains("upgrade first") == true)
  }

  @Test("migrate creates a database, reports it up to date, and backs up first when asked")
  func migrate() throws {
    let databasePath = path("data/awfulbot.sqlite")
    let created = try DatabaseMaintenance.migrate(databasePath: databasePath)
    #expect(!created.applied.isEmpty)
    #expect(created.newlyApplied == created.applied)
    let database = try BotDatabase(path: databasePath)
    try database.writeNow { tx in _ = try tx.ensureRoom(transport: "irc", room: "#goons", now: Date()) }
    let again = try DatabaseMaintenance.migrate(databasePath: databasePath, backupPath: path("backup.sqlite"))
    #expect(again.newlyApplied == [])
    #expect(again.backupPath == path("backup.sqlite"))
    let backup = try DataTransfer.export(databasePath: path("backup.sqlite"))
    #expect(backup.rooms.map(\.room) == ["#goons"], "the backup holds what the live database held")
    let mode = try FileManager.default.attributesOfItem(atPath: path("backup.sqlite"))[.posixPermissions] as? NSNumber
    #expect(mode?.intValue == 0o600)
    #expect(throws: BotStoreError.self) {
      try DatabaseMaintenance.backup(databasePath: databasePath, to: path("backup.sqlite"))
    }
    try database.close()
  }
}

/// What `status` says about transports once the daemon is gone: its last heartbeat's "connected" is history.
@Suite("ops: status of a stopped daemon")
struct OpsStoppedDaemonStatusTests {
  @Test("a stopped daemon's transports read as not connected, naming why")
  func transportsOfAStoppedDaemon() throws {
    func report(state: String) throws -> StatusReport {
      let json = """
        {"databasePath": "/tmp/x.sqlite", "pendingMigrations": [], "sources": [], "rooms": 1, "subscriptions": 1,
         "pending": 0, "delivered": 0, "held": 0, "failed": 0, "deadLetters": 0, "outboxDepth": [],
         "recentDeadLetters": [],
         "daemon": {"state": "\(state)", "pid": 7, "version": "0.1.0", "startedAt": 0, "lastSeen": 0},
         "forum": {"hasSession": true},
         "transports": [{"name": "irc", "connected": true, "lastConnected": 0}]}
        """
      return try JSONDecoder().decode(StatusReport.self, from: Data(json.utf8))
    }
    let running = try report(state: "running").text(now: Date(timeIntervalSinceReferenceDate: 60))
    #expect(running.contains("  ✓ irc: connected, last contact 60s ago"), "\(running)")
    let stopped = try report(state: "stopped").text(now: Date(timeIntervalSinceReferenceDate: 60))
    #expect(stopped.contains("  - irc: not connected (the daemon is stopped), last contact 60s ago"), "\(stopped)")
  }
}
