import AwfulBotApp
import AwfulBotAppTestKit
import AwfulBotTestKit
import BotStore
import ChatBridge
import Foundation
import Logging
import Synchronization
import Testing

/// `awfulbot backup`, the scheduled backups inside `run`, and `awfulbot restore`, on real database files.
@Suite("ops: backup and restore")
struct OpsBackupTests {
  let directory: TemporaryDirectory

  init() throws {
    directory = try TemporaryDirectory("awfulbot-ops-backup")
  }

  static let roomID = "!goons:example.org"

  /// A database whose thread `1` has as many posts counted as the outbox has rows: the state every transaction of
  /// the writer below keeps, so a copy that mixed two moments would show it.
  func seededDatabase(at path: String, rows: Int, payloadBytes: Int = 2000) throws -> BotDatabase {
    let database = try BotDatabase(path: path)
    let now = Date()
    let payload = String(repeating: "x", count: payloadBytes)
    try database.writeNow { tx in
      for index in 0..<rows {
        var row = OutboxRecord(
          transport: "matrix", room: Self.roomID, kind: .post, payload: payload, idempotencyKey: "seed-\(index)",
          createdAt: now)
        try tx.enqueue(&row)
      }
      try tx.save(ThreadRecord(id: "1", cursorIndex: rows, firstSeenAt: now, updatedAt: now))
    }
    return database
  }

  /// One relay: a row queued and the thread's cursor moved, in one transaction, as the engine does.
  static func relayOne(_ database: BotDatabase) async throws {
    try await database.write { tx in
      var row = OutboxRecord(
        transport: "matrix", room: Self.roomID, kind: .post, payload: "{}", idempotencyKey: UUID().uuidString,
        createdAt: Date())
      try tx.enqueue(&row)
      guard var thread = try tx.thread(id: "1") else { throw CocoaError(.coderValueNotFound) }
      thread.cursorIndex += 1
      try tx.save(thread)
    }
  }

  /// The thread's cursor and the number of queued rows in one snapshot.
  static func state(of database: ReadOnlyDatabase) throws -> (cursor: Int, rows: Int) {
    try database.read { tx in (try tx.thread(id: "1")?.cursorIndex ?? -1, try tx.outboxCounts().pending) }
  }

  static func mode(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }

  /// Runs blocking work on a thread of its own, as the backup service does, so the writer's tasks keep running.
  static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
  }

  // MARK: backup

  @Test("a backup taken while a writer commits without pause holds one consistent state, 0600, and the writes go on")
  func backupWhileWriting() async throws {
    let path = directory.path("awfulbot.sqlite")
    let database = try seededDatabase(at: path, rows: 3000)
    let writer = Task {
      var writes = 0
      while !Task.isCancelled {
        do {
          try await Self.relayOne(database)
        } catch is CancellationError {
          // Stopped while a write waited its turn: the test is over.
          break
        }
        writes += 1
      }
      return writes
    }
    // Whatever happens below, the writer stops: left running it would fill the disk.
    defer { writer.cancel() }
    try await waitUntil("the writer has started") { try database.readNow { try $0.outboxCounts().pending } > 3010 }

    let backupPath = directory.path("copy.sqlite")
    // Small steps with a pause between them: the copy takes a good part of a second, and the writer commits
    // throughout it.
    let (outcome, rowsAtFirstStep, rowsAtLastStep, steps) = try await Self.offThePool {
      var first: Int?
      var last = 0
      var steps = 0
      let outcome = try DatabaseBackup.backup(databasePath: path, to: backupPath, pagesPerStep: 16) { _, _ in
        let rows = try database.readNow { try $0.outboxCounts().pending }
        first = first ?? rows
        last = rows
        steps += 1
        Thread.sleep(forTimeInterval: 0.002)
      }
      return (outcome, first ?? 0, last, steps)
    }
    writer.cancel()
    let writes = try await writer.value

    #expect(outcome.path == backupPath)
    #expect(steps > 20)
    // Commits landed between the copy's steps: the copy never held the writer off for its whole length. (How long
    // one write waited is a matter of the machine's load, not of the code, so it is not asserted.)
    #expect(rowsAtLastStep > rowsAtFirstStep, "the daemon's writes went on during the copy")
    #expect(writes > 0)
    #expect(try Self.mode(backupPath) == 0o600)
    #expect(!FileManager.default.fileExists(atPath: backupPath + ".partial"))

    let copy = try ReadOnlyDatabase(path: backupPath)
    let copied = try Self.state(of: copy)
    try copy.close()
    #expect(copied.cursor == copied.rows, "one transaction's state, never half of one")
    #expect(copied.rows >= 3000 && copied.rows <= rowsAtFirstStep)
    #expect(try DatabaseFile.inspect(path: backupPath).appliedMigrations == Set(DatabaseFile.knownMigrations))
    let live = try database.readNow { tx in (try tx.thread(id: "1")?.cursorIndex ?? -1, try tx.outboxCounts().pending) }
    #expect(live.0 == live.1 && live.1 > copied.rows)
    try database.close()
  }

  @Test("backup never replaces a file, and into a directory it names the file with the UTC time")
  func backupTargets() throws {
    let path = directory.path("awfulbot.sqlite")
    try seededDatabase(at: path, rows: 3).close()
    let existing = directory.path("taken.sqlite")
    try #require(FileManager.default.createFile(atPath: existing, contents: Data("mine".utf8)))
    #expect(throws: DatabaseBackupError.exists(path: existing)) {
      try DatabaseBackup.backup(databasePath: path, to: existing)
    }
    #expect(try String(contentsOfFile: existing, encoding: .utf8) == "mine")

    let folder = directory.path("backups")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let when = Date(timeIntervalSince1970: 1_736_158_205)
    let outcome = try DatabaseBackup.backup(databasePath: path, to: folder, now: when)
    #expect(URL(fileURLWithPath: outcome.path).lastPathComponent == "awfulbot-20250106T101005Z.sqlite")
    #expect(DatabaseBackup.date(fromFileName: "awfulbot-20250106T101005Z.sqlite") == when)
    #expect(DatabaseBackup.date(fromFileName: "awfulbot-2025-01-06.sqlite") == nil)
    #expect(try Self.mode(outcome.path) == 0o600)
  }

  @Test("the advice names the Matrix key files and where each secret comes from, and shows no secret")
  func adviceNamesKeyFilesNotSecrets() throws {
    let pickleKey = "PICKLE-KEY-VALUE-0123456789"
    try #require(
      FileManager.default.createFile(
        atPath: directory.path("matrix-matrix.pickle-key"), contents: Data((pickleKey + "\n").utf8),
        attributes: [.posixPermissions: 0o600]))
    let json: [String: Any] = [
      "forum": ["username": "bot", "password": "hunter2"],
      "dataDirectory": directory.path,
      "transports": [
        [
          "type": "matrix", "name": "matrix", "homeserver": "https://matrix.example.org",
          "userID": "@awfulbot:example.org", "accessToken": "syt_literal_token",
        ],
        [
          "type": "irc", "name": "irc-libera", "server": "irc.libera.chat:6697", "nick": "awfulbot",
          "sasl": ["mechanism": "PLAIN", "account": "awfulbot", "password": ["env": "MY_SASL_PASSWORD"]],
        ],
        ["type": "console"],
      ],
    ]
    let configuration = try AppConfiguration.parse(
      data: try JSONSerialization.data(withJSONObject: json), checksSecrets: false)
    let advice = BackupAdvice.make(
      configuration: configuration, configurationPath: "/etc/awfulbot/config.json",
      databasePath: configuration.databasePath)
    let text = advice.lines.joined(separator: "\n")
    // Said first and plainly: the file itself is a credential (issue 43).
    #expect(
      advice.lines.first
        == "the backup is a credential: it holds the forum login cookies and the Matrix access token in clear, so "
        + "whoever has it can post as the bot; it is mode 0600: keep it, and every copy of it, as you keep the forum "
        + "password")
    #expect(text.contains(directory.path("matrix-matrix.pickle-key") + ": the key"))
    #expect(text.contains(directory.path("matrix-matrix.recovery-key.txt") + " (not there now)"))
    #expect(text.contains("/etc/awfulbot/config.json, which holds forum.password, transports[0].accessToken"))
    #expect(text.contains("$MY_SASL_PASSWORD (transports[1].sasl.password)"))
    #expect(text.contains("$AWFULBOT_MATRIX_PICKLE_KEY"))
    for secret in ["hunter2", "syt_literal_token", pickleKey] { #expect(!text.contains(secret)) }

    // With --database there is no config to go by: the files beside the database are named instead.
    let bare = BackupAdvice.make(configuration: nil, configurationPath: nil, databasePath: configuration.databasePath)
      .lines.joined(separator: "\n")
    #expect(bare.hasPrefix(BackupAdvice.credentialWarning))
    #expect(bare.contains("matrix-matrix.pickle-key"))
    #expect(!bare.contains(pickleKey))
  }

  // MARK: scheduled backups

  @Test("scheduled backups inside run: named with the time, 0600, the newest K kept, one log line each")
  func scheduledKeepsNewest() async throws {
    let path = directory.path("awfulbot.sqlite")
    let database = try seededDatabase(at: path, rows: 20)
    let folder = directory.url.appendingPathComponent("backups")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let foreign = folder.appendingPathComponent("notes.txt").path
    try #require(FileManager.default.createFile(atPath: foreign, contents: Data("not a backup".utf8)))
    // Each look at the clock is an hour later, so every backup gets its own name without waiting.
    let clock = TestClock()
    let capture = LogCapture()
    let service = BackupService(
      databasePath: path, directory: folder, interval: .milliseconds(30), keep: 2, firstDelay: .zero,
      pagesPerStep: 4, pauseBetweenSteps: .zero, logger: .capturing(into: capture),
      now: {
        clock.advance(by: 3600)
        return clock.now()
      })
    try await withRunningServices([service]) {
      // Each backup syncs a file to disk: on a machine busy with fuzzing and other suites, four took over 20 s once.
      try await waitUntil("four backups", timeout: .seconds(60)) {
        capture.messages.filter { $0 == "database backed up" }.count >= 4
      }
      try await Self.relayOne(database)
    }
    let lines = capture.entries.filter { $0.message == "database backed up" }
    // A copy under way when the test stops the service is abandoned, and says so.
    let expected: Set = ["database backed up", "database backup abandoned at shutdown"]
    #expect(capture.entries.allSatisfy { expected.contains($0.message) }, "\(capture.lines)")
    #expect(lines.allSatisfy { Set($0.metadata.keys) == ["file", "bytes", "seconds", "removed", "keep"] })
    #expect(lines.dropFirst(2).allSatisfy { $0.metadata["removed"] == "1" })

    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    let backups = names.filter { DatabaseBackup.date(fromFileName: $0) != nil }
    #expect(backups.count == 2)
    #expect(names.contains("notes.txt"), "files not named as backups are never removed")
    let newest = lines.suffix(2).compactMap {
      $0.metadata["file"].map { URL(fileURLWithPath: "\($0)").lastPathComponent }
    }
    #expect(Set(backups) == Set(newest))
    for name in backups {
      let file = folder.appendingPathComponent(name).path
      #expect(try Self.mode(file) == 0o600)
      let copy = try ReadOnlyDatabase(path: file)
      let state = try Self.state(of: copy)
      try copy.close()
      #expect(state.cursor == state.rows)
    }
    try database.close()
  }

  @Test("after a restart the next backup is due one interval after the newest in the directory")
  func firstBackupFollowsTheNewest() throws {
    let folder = directory.url.appendingPathComponent("backups")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let clock = TestClock()
    func service() -> BackupService {
      BackupService(
        databasePath: directory.path("awfulbot.sqlite"), directory: folder, interval: .seconds(24 * 3600), keep: 3,
        firstDelay: .seconds(60), now: { clock.now() })
    }
    #expect(service().firstWait() == .seconds(60))
    let sixHoursAgo = clock.now().addingTimeInterval(-6 * 3600)
    try #require(
      FileManager.default.createFile(
        atPath: folder.appendingPathComponent(DatabaseBackup.fileName(at: sixHoursAgo)).path, contents: Data()))
    #expect(service().firstWait() == .seconds(18 * 3600))
    clock.advance(by: 30 * 3600)
    #expect(service().firstWait() == .seconds(60))
  }

  @Test("the backup section: defaults, and every wrong value named with its key")
  func configuration() throws {
    let defaults = try OpsConfig.parse(["backup": [String: Any](), "dataDirectory": "/var/lib/awfulbot"])
    let settings = try #require(defaults.backup)
    #expect(settings.interval == .seconds(24 * 3600))
    #expect(settings.keepCount == 7)
    #expect(
      settings.directoryURL(dataDirectory: URL(fileURLWithPath: "/var/lib/awfulbot")).path
        == "/var/lib/awfulbot/backups")
    let custom = try OpsConfig.parse(["backup": ["everyHours": 6, "keep": 3, "directory": "/srv/backups/awfulbot"]])
    #expect(custom.backup == BackupSettings(everyHours: 6, keep: 3, directory: "/srv/backups/awfulbot"))
    #expect(try OpsConfig.parse().backup == nil)

    #expect(
      OpsConfig.problems(["backup": ["everyHours": 0.5, "keep": 0, "directory": " ", "kep": 3]]) == [
        "backup.kep: unknown key (did you mean \"keep\"?)",
        "backup.everyHours: expected 1 to 8760 hours, got 0.5",
        "backup.keep: must be at least 1 (leave the backup section out for no backups), got 0",
        "backup.directory: must not be empty (leave it out for backups in dataDirectory)",
      ])
    #expect(
      OpsConfig.problems(["backup": ["everyHours": "daily", "keep": 2.5]]) == [
        "backup.everyHours: expected a number, got a string",
        "backup.keep: expected a whole number, got 2.5",
      ])
    #expect(OpsConfig.problems(["backup": true]) == ["backup: expected an object, got a boolean"])
  }

  // MARK: restore

  /// A backup of a database with room `!before:example.org`, then a room added after it.
  func databaseWithBackup() throws -> (path: String, backup: String) {
    let path = directory.path("awfulbot.sqlite")
    let database = try seededDatabase(at: path, rows: 5)
    try database.writeNow { _ = try $0.ensureRoom(transport: "matrix", room: "!before:example.org", now: Date()) }
    let backup = try DatabaseBackup.backup(databasePath: path, to: directory.path("backup.sqlite")).path
    try database.writeNow { _ = try $0.ensureRoom(transport: "matrix", room: "!after:example.org", now: Date()) }
    try database.close()
    return (path, backup)
  }

  static func rooms(_ path: String) throws -> [String] {
    let database = try ReadOnlyDatabase(path: path)
    defer { try? database.close() }
    return try database.read { try $0.allRooms().map(\.room).sorted() }
  }

  @Test("restore puts the backup in place, keeps the replaced database aside, and 0600")
  func restoreKeepsTheOldAside() throws {
    let (path, backup) = try databaseWithBackup()
    let when = Date(timeIntervalSince1970: 1_736_158_205)
    let outcome = try BackupRestore.restore(backup: backup, databasePath: path, now: when)
    #expect(outcome.keptAside == path + ".before-restore-20250106T101005Z")
    #expect(outcome.pendingMigrations.isEmpty)
    #expect(try Self.rooms(path) == ["!before:example.org"])
    #expect(try Self.rooms(try #require(outcome.keptAside)) == ["!after:example.org", "!before:example.org"])
    #expect(try Self.mode(path) == 0o600)
    #expect(!FileManager.default.fileExists(atPath: path + ".restoring-20250106T101005Z"))
    // The restored database is the bot's, migrated and usable.
    let reopened = try BotDatabase(path: path)
    #expect(try reopened.appliedMigrations() == DatabaseFile.knownMigrations)
    try reopened.close()
  }

  @Test("restore refuses while the bot runs, and goes on once it has stopped")
  func restoreRefusesWhileRunning() async throws {
    let (path, backup) = try databaseWithBackup()
    let database = try BotDatabase(path: path)
    let daemon = OpsDaemonStandIn(database: database, transports: [])
    await daemon.monitor.beat()
    let error = try #require(throws: DatabaseBackupError.self) {
      try BackupRestore.restore(backup: backup, databasePath: path)
    }
    guard case .running(let pid, _) = error else {
      Issue.record("expected running, got \(error)")
      return
    }
    #expect(pid == ProcessInfo.processInfo.processIdentifier)
    #expect(error.description.contains("stop it first"))
    #expect(try Self.rooms(path) == ["!after:example.org", "!before:example.org"])
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(!leftovers.contains { $0.contains("before-restore") || $0.contains("restoring") })

    // The bot stops: its last heartbeat says so, and the restore goes on.
    let running = Task { try await daemon.monitor.run() }
    running.cancel()
    _ = await running.result
    try await daemon.shutdown()
    try database.close()
    #expect(try StatusReport.read(databasePath: path).daemon?.state == .stopped)
    _ = try BackupRestore.restore(backup: backup, databasePath: path)
    #expect(try Self.rooms(path) == ["!before:example.org"])
  }

  @Test("restore carries over what was sent since the backup, so nothing goes out twice, and marks the transports")
  func restoreCarriesOverDeliveries() throws {
    let path = directory.path("awfulbot.sqlite")
    let database = try seededDatabase(at: path, rows: 3)
    try database.writeNow { tx in
      try tx.setTransportState("s123_456", transport: "matrix", key: "next_batch", now: Date())
    }
    let backup = try DatabaseBackup.backup(databasePath: path, to: directory.path("backup.sqlite")).path
    // Since the backup: seed-0 delivered, seed-1 given up on, a new relay queued and delivered.
    let sent = Date(timeIntervalSince1970: 1_736_160_000)
    try database.writeNow { tx in
      try tx.markDelivered(id: try #require(try tx.outboxRow(idempotencyKey: "seed-0")?.id), receipt: "$one", at: sent)
      try tx.markDead(id: try #require(try tx.outboxRow(idempotencyKey: "seed-1")?.id), error: "refused", at: sent)
      var later = OutboxRecord(
        transport: "irc", room: "#goons", kind: .post, payload: "{}", idempotencyKey: "later", createdAt: sent)
      try tx.enqueue(&later)
      try tx.markDelivered(id: try #require(later.id), receipt: "irc:1", at: sent)
    }
    try database.close()

    let outcome = try BackupRestore.restore(backup: backup, databasePath: path)
    #expect(outcome.carriedOver == 3 && outcome.carryOverProblem == nil, "\(outcome)")
    let restored = try ReadOnlyDatabase(path: path)
    defer { try? restored.close() }
    let rows = try restored.read { try $0.allOutboxRows() }
    let states = Dictionary(uniqueKeysWithValues: rows.map { ($0.idempotencyKey, $0.state) })
    #expect(states == ["seed-0": .delivered, "seed-1": .dead, "seed-2": .pending, "later": .delivered])
    #expect(rows.first { $0.idempotencyKey == "seed-0" }?.receipt == "$one")
    let marker = try restored.read {
      try $0.transportState(transport: "matrix", key: TransportStateMarker.restoredFromBackup)
    }
    #expect(marker != nil, "the Matrix transport starts over from its sync position and keys")
    #expect(
      try restored.read { try $0.transportState(transport: "matrix", key: "next_batch") } == "s123_456",
      "the transport itself decides what starting over means")
  }

  @Test("restore refuses while a bot holds the database's lock, whatever its heartbeat; a second run is refused too")
  func restoreRefusesWhileLocked() throws {
    let (path, backup) = try databaseWithBackup()
    var lock: DatabaseLock? = try DatabaseLock.acquire(databasePath: path)
    // No heartbeat at all (a bot that hangs before its first beat, or whose heartbeat went stale): the lock decides.
    let error = try #require(throws: DatabaseBackupError.self) {
      try BackupRestore.restore(backup: backup, databasePath: path)
    }
    #expect(error == .locked(pid: ProcessInfo.processInfo.processIdentifier))
    #expect(error.description.contains("holds the database's lock"))
    let second = try #require(throws: DatabaseLockError.self) { try DatabaseLock.acquire(databasePath: path) }
    #expect(second == .held(databasePath: path, pid: ProcessInfo.processInfo.processIdentifier))
    #expect(try DatabaseLock.holder(databasePath: path) == .some(ProcessInfo.processInfo.processIdentifier))
    #expect(try Self.rooms(path) == ["!after:example.org", "!before:example.org"], "nothing replaced")
    withExtendedLifetime(lock) {}
    lock = nil
    #expect(try DatabaseLock.holder(databasePath: path) == .none, "released with its holder")
    _ = try BackupRestore.restore(backup: backup, databasePath: path)
    #expect(try Self.rooms(path) == ["!before:example.org"])
  }

  @Test("a backup of a running bot restores as a stopped one, so status and a second restore are not misled")
  func restoredHeartbeatIsStopped() async throws {
    let path = directory.path("awfulbot.sqlite")
    let database = try seededDatabase(at: path, rows: 1)
    let daemon = OpsDaemonStandIn(database: database, transports: [])
    await daemon.monitor.beat()
    let backup = try DatabaseBackup.backup(databasePath: path, to: directory.path("running.sqlite")).path
    try await daemon.shutdown()
    try database.close()
    let elsewhere = directory.path("new-host.sqlite")
    _ = try BackupRestore.restore(backup: backup, databasePath: elsewhere)
    #expect(try StatusReport.read(databasePath: elsewhere).daemon?.state == .stopped)
    let again = try BackupRestore.restore(backup: backup, databasePath: elsewhere)
    #expect(again.keptAside != nil)
  }

  @Test("restore refuses a backup from a newer schema, and says an older one is migrated at the next start")
  func restoreChecksTheSchema() throws {
    let (path, backup) = try databaseWithBackup()
    let known = DatabaseFile.knownMigrations
    // This build as an older one, which does not know the backup's last migration.
    let error = try #require(throws: DatabaseBackupError.self) {
      try BackupRestore.restore(backup: backup, databasePath: path, knownMigrations: Array(known.dropLast()))
    }
    #expect(error == .newerSchema(path: backup, unknown: [known.last ?? ""]))
    #expect(error.description.contains("newer awfulbot"))
    #expect(try Self.rooms(path) == ["!after:example.org", "!before:example.org"])

    // This build as a newer one, with a migration the backup has not run.
    let outcome = try BackupRestore.restore(
      backup: backup, databasePath: path, knownMigrations: known + ["v99-future"])
    #expect(outcome.pendingMigrations == ["v99-future"])
  }

  @Test("restore refuses what is not a whole awfulbot database, and the database itself")
  func restoreRefusesOtherFiles() throws {
    let (path, _) = try databaseWithBackup()
    let text = directory.path("notes.txt")
    try #require(
      FileManager.default.createFile(atPath: text, contents: Data(String(repeating: "not sqlite ", count: 200).utf8)))
    #expect(throws: DatabaseFileError.self) { try BackupRestore.restore(backup: text, databasePath: path) }
    let empty = directory.path("empty.sqlite")
    try #require(FileManager.default.createFile(atPath: empty, contents: Data()))
    #expect(throws: DatabaseFileError.notAwfulBot(path: empty, missing: "grdb_migrations")) {
      try BackupRestore.restore(backup: empty, databasePath: path)
    }
    #expect(throws: DatabaseBackupError.sameFile(path: path)) {
      try BackupRestore.restore(backup: path, databasePath: path)
    }
    #expect(try Self.rooms(path) == ["!after:example.org", "!before:example.org"])
  }
}
