import BotCore
import BotStore
import ChatBridge
import ForumsClient
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Watches the forum session and the transports while the bot runs: answers `/readyz`, keeps the connection and
/// reconnect metrics, and writes a heartbeat into the database so `awfulbot status` (another process) can report
/// the daemon, the login state and each transport's last contact.
package final class OperationsMonitor: Service, Sendable {
  private let database: BotDatabase
  private let client: ForumsClient
  private let transports: [any ChatTransport]
  private let connections: TransportConnections
  private let interval: Duration
  private let logger: Logger
  private let startedAt = Date()
  private let state = Mutex<[String: TransportConnectionRecord]>([:])
  private let configurationStamp = Mutex<ConfigurationStamp?>(nil)
  /// The rooms the outbox gauge reported with rows waiting at the last refresh (see `AppMetrics.outbox`).
  private let outboxRooms = Mutex<Set<AppMetrics.OutboxRoom>>([])
  /// The `room` labels of the outbox gauge (the engine's: configured rooms, the rest `other`).
  private let roomLabels: MetricRoomLabels

  package init(
    database: BotDatabase, client: ForumsClient, transports: [any ChatTransport], connections: TransportConnections,
    interval: Duration = .seconds(15), roomLabels: MetricRoomLabels = MetricRoomLabels(),
    logger: Logger = Logger(label: "awfulbot.ops")
  ) {
    self.database = database
    self.roomLabels = roomLabels
    self.client = client
    self.transports = transports
    self.connections = connections
    self.interval = interval
    self.logger = logger
  }

  package func run() async throws {
    AppMetrics.buildInfo(version: AppInfo.version)
    while !Task.isShuttingDownGracefully && !Task.isCancelled {
      // While something is not up yet (the first login, a transport's first sync, a reconnect), beat often, so
      // `status` run next to the daemon does not show a start-up snapshot for a whole interval.
      let settled = await beat()
      let interval = settled ? self.interval : min(self.interval, Self.unsettledInterval)
      _ = try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
    }
    recordStopped()
  }

  /// The config file the bot now runs with (at start, after a reload or a refused reload); the next heartbeat
  /// writes it for `status`.
  package func recordConfiguration(_ stamp: ConfigurationStamp) {
    configurationStamp.withLock { $0 = stamp }
  }

  package var configuration: ConfigurationStamp? { configurationStamp.withLock { $0 } }

  /// Ready when the forum session is there and every transport has said it is connected.
  package func readiness() async -> Readiness {
    var problems: [String] = []
    if !(await client.hasSession()) { problems.append("forum: not logged in") }
    if let since = database.storage.fullSince {
      problems.append(
        "storage: disk full since \(since.formatted(.iso8601)); nothing new is saved until space is freed")
    }
    for transport in transports {
      if let problem = connections.entry(transport.name).state.problem {
        problems.append("transport \(transport.name): \(problem)")
      }
    }
    return Readiness(problems: problems)
  }

  /// Refreshes the gauges that mirror the database (called before each scrape).
  package func refreshGauges() async {
    AppMetrics.forumLoggedIn(await client.hasSession())
    AppMetrics.storageFull(database.storage.fullSince != nil)
    AppMetrics.residentMemory()
    do {
      let (depth, counts) = try await database.read { tx in (try tx.pendingDepthByRoom(), try tx.outboxCounts()) }
      let before = outboxRooms.withLock { $0 }
      let now = AppMetrics.outbox(
        depthByRoom: depth.map { ($0.transport, $0.room, $0.pending) }, deadLetters: counts.dead,
        reportedBefore: before, label: roomLabels.label)
      outboxRooms.withLock { $0 = now }
    } catch {
      logger.warning("could not read the outbox for metrics", metadata: ["error": "\(error)"])
    }
  }

  static let unsettledInterval: Duration = .seconds(1)

  /// One heartbeat: look at the session and the transports, update the metrics, write the records. Returns whether
  /// everything was up (logged in, every transport connected).
  @discardableResult
  package func beat() async -> Bool {
    let now = Date()
    let loggedIn = await client.hasSession()
    AppMetrics.forumLoggedIn(loggedIn)
    var records: [String: TransportConnectionRecord] = [:]
    for transport in transports {
      let connection = connections.entry(transport.name)
      let problem = connection.state.problem
      let encryption = await transport.encryptionStatus()
      let connected = problem == nil
      AppMetrics.transportConnected(connected, transport: transport.name)
      records[transport.name] = state.withLock { known in
        var record =
          known[transport.name]
          ?? TransportConnectionRecord(
            name: transport.name, connected: connected, problem: nil, checkedAt: now, lastConnectedAt: nil,
            reconnects: 0, unreadableRooms: nil, encryptedRooms: nil, encryptionIdentity: nil)
        let reconnects = max(connection.connections - 1, record.reconnects)
        if reconnects > record.reconnects {
          AppMetrics.transportReconnected(transport: transport.name, times: reconnects - record.reconnects)
        }
        record.reconnects = reconnects
        record.connected = connected
        record.problem = problem
        let unreadable = encryption?.unreadableRooms ?? []
        let encrypted = encryption?.roomKeysShared ?? [:]
        record.unreadableRooms = unreadable.isEmpty ? nil : unreadable
        record.encryptedRooms = encrypted.isEmpty ? nil : encrypted
        record.encryptionIdentity = encryption?.identity
        record.checkedAt = now
        if connected { record.lastConnectedAt = now }
        known[transport.name] = record
        return record
      }
    }
    let daemon = DaemonHeartbeatRecord(
      pid: ProcessInfo.processInfo.processIdentifier, startedAt: startedAt, lastSeen: now, stoppedAt: nil,
      heartbeatSeconds: Double(interval.components.seconds), configuration: configuration)
    let forum = ForumSessionStateRecord(loggedIn: loggedIn, checkedAt: now, wall: await client.wall)
    let storage = StorageStateRecord(fullSince: database.storage.fullSince, checkedAt: now)
    AppMetrics.storageFull(storage.fullSince != nil)
    let transportRecords = records
    do {
      // On its own: on a full disk the other records may grow past their place and fail, and this one must land.
      try await database.write { tx in
        try tx.save(storage)
      }
    } catch {
      logger.debug("could not write the storage record", metadata: ["error": "\(error)"])
    }
    do {
      try await database.write { tx in
        try tx.save(daemon)
        try tx.save(forum)
        for record in transportRecords.values { try tx.save(record) }
      }
    } catch {
      // A full disk is logged once when it begins (by the engine), not at every heartbeat.
      logger.log(
        level: BotStoreError.isStorageFull(error) ? .debug : .warning, "could not write the heartbeat",
        metadata: ["error": "\(error)"])
    }
    return loggedIn && transportRecords.values.allSatisfy(\.connected)
  }

  private func recordStopped() {
    let now = Date()
    let daemon = DaemonHeartbeatRecord(
      pid: ProcessInfo.processInfo.processIdentifier, startedAt: startedAt, lastSeen: now, stoppedAt: now,
      heartbeatSeconds: Double(interval.components.seconds), configuration: configuration)
    do {
      // Synchronous on purpose: at shutdown the task may already be cancelled, which would skip an async write.
      try database.writeNow { tx in
        try tx.save(daemon)
      }
    } catch {
      logger.warning("could not record the shutdown", metadata: ["error": "\(error)"])
    }
  }
}
