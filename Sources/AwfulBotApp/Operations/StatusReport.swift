import BotCore
import BotStore
import ForumModel
import Foundation

/// What `awfulbot status` shows, read from the database alone (so it works while the daemon runs, from another
/// process): the daemon's heartbeat, the forum session, each poll source, the outbox, dead letters and transports.
package struct StatusReport: Sendable, Codable, Hashable {
  package struct Daemon: Sendable, Codable, Hashable {
    package var state: DaemonState
    package var pid: Int32
    package var version: String
    package var startedAt: Date
    package var lastSeen: Date
    /// The config file the daemon runs with, as its last heartbeat says.
    package var configuration: ConfigurationStamp? = nil
    /// The checksum of that file as it is on disk now, when it differs from the one the daemon runs with (edited
    /// since, not reloaded yet).
    package var configurationOnDisk: String? = nil

    /// Whether its process is there: running, or alive with a heartbeat the full disk keeps from being saved.
    package var isRunning: Bool { state.isRunning }
  }

  package struct Forum: Sendable, Codable, Hashable {
    /// A session cookie is stored (the daemon logged in and kept the session).
    package var hasSession: Bool
    package var sessionExpires: Date?
    /// The daemon's own view at its last heartbeat.
    package var loggedInAtLastHeartbeat: Bool?
    package var checkedAt: Date?
    /// The wall in front of the forum at the daemon's last heartbeat.
    package var wall: ForumWallSighting?
  }

  package struct Source: Sendable, Codable, Hashable {
    package var source: String
    package var lastAttempt: Date?
    package var lastSuccess: Date?
    package var lastError: String?
    package var lastErrorAt: Date?
    package var consecutiveErrors: Int
    package var totalPolls: Int
    package var totalErrors: Int
    /// When the next poll is due; after errors this is the backoff.
    package var nextAttempt: Date?
    /// The wait between polls after the last success and why ("every 10 s: threads moved at the last check").
    package var pace: String? = nil
    /// The bookmarks: the full sweep read a page at a time, in progress or when it last ended.
    package var sweep: Sweep? = nil
  }

  /// The bookmarks' full sweep (read a page at a time between checks): where it is, or when the last one began.
  package struct Sweep: Sendable, Codable, Hashable {
    /// When the sweep in progress began; nil when none is in progress.
    package var startedAt: Date?
    /// The next page it reads.
    package var nextPage: Int?
    /// Threads no page listed, still to be confirmed on their own page.
    package var confirming: Int
    /// When the last complete sweep began.
    package var lastComplete: Date?
  }

  package struct RoomDepth: Sendable, Codable, Hashable {
    package var transport: String
    package var room: String
    package var pending: Int
  }

  package struct DeadLetter: Sendable, Codable, Hashable {
    package var transport: String
    package var room: String
    package var kind: String
    package var state: String
    package var postID: String?
    package var error: String?
    package var at: Date?
  }

  /// A row the poison-message guard parked: the bot stopped twice while sending it (see `BotCore.CrashGuard`).
  package struct ParkedRow: Sendable, Codable, Hashable {
    package var id: Int64
    package var transport: String
    package var room: String
    package var kind: String
    package var postID: String?
    package var crashes: Int
    package var at: Date?
  }

  package struct Transport: Sendable, Codable, Hashable {
    package var name: String
    package var connected: Bool?
    package var problem: String?
    /// Last time the daemon saw it connected.
    package var lastConnected: Date?
    /// Last message the chat service acknowledged.
    package var lastDelivery: Date?
    package var reconnects: Int?
    /// Rooms where the bot cannot read commands (encrypted Matrix rooms).
    package var unreadableRooms: [String]?
    /// Rooms the bot reads and writes encrypted, with whether their key went to every joined device.
    package var encryptedRooms: [String: Bool]? = nil
    package var encryptionIdentity: String? = nil
  }

  /// The database's disk: the daemon's view at its last heartbeat and the free space now.
  package struct Storage: Sendable, Codable, Hashable {
    /// Since when the daemon's writes fail for lack of space, as its last heartbeat said.
    package var fullSince: Date?
    /// Bytes the bot may still use on the filesystem holding the database, now.
    package var freeBytes: Int64?

    package var isFull: Bool { fullSince != nil || Self.isNearlyFull(freeBytes) }

    /// Below `BotDatabase.nearlyFullBytes` free the disk counts as full whatever the daemon said: its heartbeat may
    /// be the write that failed.
    static func isNearlyFull(_ freeBytes: Int64?) -> Bool {
      freeBytes.map { $0 < BotDatabase.nearlyFullBytes } ?? false
    }
  }

  package var databasePath: String
  package var storage: Storage? = nil
  /// Always empty in a report that was read: `read` refuses a database with migrations to run
  /// (`BotStoreError.olderSchema`). Kept in the JSON form, which scripts read.
  package var pendingMigrations: [String]
  package var daemon: Daemon?
  package var forum: Forum
  package var sources: [Source]
  package var rooms: Int
  package var subscriptions: Int
  package var pending: Int
  package var delivered: Int
  package var held: Int
  package var failed: Int
  package var deadLetters: Int
  package var outboxDepth: [RoomDepth]
  package var recentDeadLetters: [DeadLetter]
  /// Messages never sent because the bot stopped twice while sending each, and the newest of them (nil in a report
  /// an older build wrote).
  package var parked: Int? = nil
  package var parkedRows: [ParkedRow]? = nil
  package var transports: [Transport]

  /// Reads the report from the database at `path` (read-only). `freeSpace` and `processIsAlive` are seams for tests:
  /// the filesystem's free bytes near a path, and whether a process id is alive on this machine.
  package static func read(
    databasePath path: String, transportNames: [String] = [], now: Date = Date(),
    freeSpace: @escaping @Sendable (String) -> Int64? = BotDatabase.freeBytes(near:),
    processIsAlive: @escaping @Sendable (Int32) -> Bool = { kill($0, 0) == 0 },
    knownMigrations: [String] = DatabaseFile.knownMigrations
  ) throws -> StatusReport {
    let database = try ReadOnlyDatabase(path: path)
    defer { try? database.close() }
    let migrations = try database.migrationState(known: knownMigrations)
    // Each migration since v5 adds tables the report reads: before they exist, say so instead of "no such table".
    if !migrations.pending.isEmpty {
      throw BotStoreError.olderSchema(
        path: path, databaseSchema: migrations.applied.last ?? "none", pending: migrations.pending)
    }
    let freeBytes = freeSpace(path)
    let diskIsFull = Storage.isNearlyFull(freeBytes)
    return try database.read { tx in
      let daemon = try tx.daemonHeartbeat().map {
        record in
        let state: DaemonState
        if record.stoppedAt != nil {
          state = .stopped
        } else if now.timeIntervalSince(record.lastSeen) > max(record.heartbeatSeconds * 3, 45) {
          // On a full disk the heartbeat is the write that fails: a live process is not a hung one.
          state = diskIsFull && processIsAlive(record.pid) ? .aliveOnFullDisk : .notResponding
        } else {
          state = .running
        }
        let configuration = record.configurationStamp
        let onDisk = configuration.flatMap { ConfigurationStamp.of(path: $0.path)?.checksum }
        return Daemon(
          state: state, pid: record.pid, version: record.version, startedAt: record.startedAt,
          lastSeen: record.stoppedAt ?? record.lastSeen, configuration: configuration,
          configurationOnDisk: onDisk == configuration?.checksum ? nil : onDisk)
      }
      let cookies = try tx.forumCookies()
      let session = cookies.first { $0.name == "bbuserid" }
      let forumRecord = try tx.forumSessionState()
      let forum = Forum(
        hasSession: session != nil && (session?.expiresAt.map { $0 > now } ?? true),
        sessionExpires: session?.expiresAt, loggedInAtLastHeartbeat: forumRecord?.loggedIn,
        checkedAt: forumRecord?.checkedAt, wall: forumRecord?.wallSighting)
      let paces = try tx.pollPaces()
      let inProgress = try tx.bookmarksSweep()
      let lastComplete = try tx.listMark(list: PollSource.bookmarks.name)?.lastFullSweep
      let sweep =
        inProgress == nil && lastComplete == nil
        ? nil
        : Sweep(
          startedAt: inProgress?.startedAt, nextPage: inProgress?.nextPage, confirming: inProgress?.unlisted.count ?? 0,
          lastComplete: lastComplete)
      let sources = try tx.allSourceHealth().map {
        Source(
          source: $0.source, lastAttempt: $0.lastAttemptAt, lastSuccess: $0.lastSuccessAt, lastError: $0.lastError,
          lastErrorAt: $0.lastErrorAt, consecutiveErrors: $0.consecutiveErrors, totalPolls: $0.totalPolls,
          totalErrors: $0.totalErrors, nextAttempt: $0.nextAttemptAt,
          pace: SourceHealth(source: $0.source, pace: paces[$0.source].flatMap(PollPace.init(record:))).paceExplanation,
          sweep: $0.source == PollSource.bookmarks.name ? sweep : nil)
      }
      let counts = try tx.outboxCounts()
      let deliveries = try tx.lastDeliveryByTransport()
      var names = Set(transportNames).union(deliveries.keys)
      let connections = try tx.transportConnections()
      names.formUnion(connections.keys)
      let transports = names.sorted().map { name in
        let record = connections[name]
        return Transport(
          name: name, connected: record?.connected, problem: record?.problem, lastConnected: record?.lastConnectedAt,
          lastDelivery: deliveries[name], reconnects: record?.reconnects, unreadableRooms: record?.unreadableRooms,
          encryptedRooms: record?.encryptedRooms, encryptionIdentity: record?.encryptionIdentity)
      }
      let storage = Storage(
        fullSince: try tx.storageState()?.fullSince,
        freeBytes: freeBytes)
      var report = StatusReport(
        databasePath: path, storage: storage, pendingMigrations: migrations.pending, daemon: daemon, forum: forum,
        sources: sources,
        rooms: try tx.allRooms().count, subscriptions: try tx.allSubscriptions().count, pending: counts.pending,
        delivered: counts.delivered, held: try tx.totalHeldCount(), failed: counts.failed, deadLetters: counts.dead,
        outboxDepth: try tx.pendingDepthByRoom().map {
          RoomDepth(transport: $0.transport, room: $0.room, pending: $0.pending)
        },
        recentDeadLetters: try tx.undeliverableRows(limit: 5).map {
          DeadLetter(
            transport: $0.transport, room: $0.room, kind: $0.kind.rawValue, state: $0.state.rawValue, postID: $0.postID,
            error: $0.lastError, at: $0.deadLetteredAt ?? $0.createdAt)
        },
        transports: transports)
      report.parked = counts.parked
      report.parkedRows = try tx.parkedRows(limit: 5).map {
        ParkedRow(
          id: $0.id ?? 0, transport: $0.transport, room: $0.room, kind: $0.kind.rawValue, postID: $0.postID,
          crashes: $0.crashes, at: $0.deadLetteredAt)
      }
      return report
    }
  }

  /// Anything an operator should act on: errors polling, dead letters, parked messages, a daemon that is not running,
  /// a full disk.
  package var needsAttention: Bool {
    storage?.isFull == true || daemon?.state != .running || sources.contains { $0.consecutiveErrors > 0 }
      || deadLetters > 0 || failed > 0 || (parked ?? 0) > 0
      || !forum.hasSession || transports.contains { $0.connected == false }
  }
}
