import BotCore
import BotStore
import ChatBridge
import ForumModel
import ForumsClient
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals

/// The bot assembled from a configuration: store, forum client, engine, poller, one dispatcher and one command
/// listener per transport, all as services of one `ServiceGroup`.
///
/// Order matters only at the ends: the database is opened first and closed last (when this object goes away,
/// after the group has finished), so every service can still write while it shuts down.
package final class BotApplication: Sendable {
  package let configuration: AppConfiguration
  package let database: BotDatabase
  package let client: ForumsClient
  package let engine: BotEngine
  package let transports: [any ChatTransport]
  package let services: [any Service]
  /// Heartbeat, readiness and connection metrics (see `OperationsMonitor`).
  package let monitor: OperationsMonitor
  /// Keeps the `/metrics`, `/healthz`, `/readyz` listener at the configured address; a reload may move it or turn it
  /// on or off.
  package let metricsListener: MetricsListener
  /// The listener running now; nil when `metrics` is off (or absent from a config built in code).
  package var metricsServer: MetricsServer? { metricsListener.current }
  /// Who may do what, shared by every transport's command router; a reload replaces it.
  package let permissions: SharedPermissions
  let logger: Logger
  /// The environment the config's secrets were read from (a transport's settings are read again with it).
  let environment: [String: String]
  /// Configured rooms `seedRooms` could not resolve; `ConfiguredRoomRetry` seeds them once their service answers.
  let pendingRooms = Mutex<[ConfiguredRoom]>([])

  /// - Parameters:
  ///   - transports: the chat connections, already built (see `TransportFactory`).
  ///   - databasePath: overrides `dataDirectory/awfulbot.sqlite` (tests).
  ///   - progress: where the first full bookmarks fetch shows progress (standard error when it is a terminal).
  ///   - pollStarted: told as each poll starts, how long after it fell due (the latency bench).
  package convenience init(
    configuration: AppConfiguration, transports: [any ChatTransport], databasePath: String? = nil,
    logger: Logger = Logger(label: "awfulbot"), environment: [String: String] = ProcessInfo.processInfo.environment,
    progress: ProgressReporter = ProgressReporter(),
    pollStarted: (@Sendable (_ source: PollSource, _ late: TimeInterval) -> Void)? = nil
  ) throws {
    let path = try databasePath ?? Self.databasePath(for: configuration)
    try self.init(
      configuration: configuration, database: try BotDatabase(path: path), transports: transports, logger: logger,
      environment: environment, progress: progress, pollStarted: pollStarted)
  }

  /// Opens the database, then builds the transports the configuration names (`TransportFactory`) with it, since
  /// some keep their state there (the Matrix session and sync position).
  package convenience init(
    configuration: AppConfiguration, transportContext: TransportBuildContext, databasePath: String? = nil,
    logger: Logger = Logger(label: "awfulbot"), environment: [String: String] = ProcessInfo.processInfo.environment,
    progress: ProgressReporter = ProgressReporter(), previousRunCrashed: Bool = true
  ) throws {
    let path = try databasePath ?? Self.databasePath(for: configuration)
    let database = try BotDatabase(path: path)
    var context = transportContext
    context.database = database
    if context.dataDirectory == nil {
      context.dataDirectory = URL(fileURLWithPath: path).deletingLastPathComponent()
    }
    // The forum client comes first: the transports that show pictures read the forum's attachments through it.
    let client = try Self.makeForumsClient(configuration: configuration, database: database, environment: environment)
    context.forumAttachments = ForumsClientAttachments(client: client)
    let transports: [any ChatTransport]
    do {
      transports = try TransportFactory.makeTransports(for: configuration, context: context)
    } catch {
      // The client's own HTTP client must be shut down before it goes away.
      Task { try? await client.shutdown() }
      throw error
    }
    try self.init(
      configuration: configuration, database: database, transports: transports, logger: logger,
      environment: environment, progress: progress, previousRunCrashed: previousRunCrashed, forumsClient: client)
  }

  private init(
    configuration: AppConfiguration, database: BotDatabase, transports: [any ChatTransport], logger: Logger,
    environment: [String: String], progress: ProgressReporter,
    pollStarted: (@Sendable (_ source: PollSource, _ late: TimeInterval) -> Void)? = nil,
    previousRunCrashed: Bool = true, forumsClient: ForumsClient? = nil
  ) throws {
    self.configuration = configuration
    self.environment = environment
    self.logger = logger
    self.transports = transports
    self.database = database

    client =
      try forumsClient
      ?? Self.makeForumsClient(
        configuration: configuration, database: database, environment: environment)

    var engineConfiguration = Self.engineConfiguration(for: configuration)
    let firstFetch = FirstFetchProgress(
      isFirstFetch: try database.readNow { try $0.threadCount() } == 0, reporter: progress)
    engineConfiguration.bookmarksPageRead = { page, total, isLast in
      firstFetch.pageRead(page, total: total, isLast: isLast)
    }
    engineConfiguration.pollStarted = pollStarted
    engineConfiguration.previousRunCrashed = previousRunCrashed
    // A command's answer the outbox cannot take (a full disk) goes straight out through its transport, with a few
    // quick retries instead of the outbox's.
    let directAnswers = Dictionary(
      uniqueKeysWithValues: transports.map { ($0.name, ChatEventService.directDelivery(via: $0)) })
    engine = BotEngine(
      database: database, forum: client,
      transports: Dictionary(uniqueKeysWithValues: transports.map { ($0.name, $0.capabilities) }),
      configuration: engineConfiguration, logger: Logger(label: "awfulbot.engine"),
      answerOnFullDisk: { reply, message, answer in await directAnswers[message.transport]?(reply, message, answer) })

    let permissions = SharedPermissions(Self.permissionPolicy(for: configuration))
    self.permissions = permissions
    engine.metricRoomLabels.follow { permissions.current.namedRooms }
    let router = CommandRouter(
      parser: CommandParser(
        prefix: configuration.commands?.prefix ?? "!", botNames: [configuration.commands?.botName ?? "awfulbot"]),
      permissions: permissions,
      forum: engine.forum, engine: engine, composer: engine.composer,
      budget: CommandBudget(limits: configuration.commands?.budgetLimits ?? .standard))
    let engine = self.engine
    let tally = TransportSupervisor.Tally(total: transports.count)
    var services: [any Service] = transports.map {
      TransportSupervisor(transport: $0, tally: tally, logger: logger) as any Service
    }
    services.append(Poller(engine: engine))
    let connections = TransportConnections()
    for transport in transports {
      services.append(Dispatcher(engine: engine, transport: transport))
      services.append(
        ChatEventService(
          transport: transport, router: router, engine: engine, logger: logger,
          observe: connections.observer(for: transport.name)
        ) {
          reply, message, answer in
          do {
            try await engine.outbox.enqueueReply(reply, answering: message, answer: answer)
          } catch {
            logger.error("reply not queued", metadata: ["transport": "\(message.transport)", "error": "\(error)"])
          }
        })
    }
    let monitor = OperationsMonitor(
      database: database, client: client, transports: transports, connections: connections,
      roomLabels: engine.metricRoomLabels)
    self.monitor = monitor
    services.append(monitor)
    metricsListener = MetricsListener(address: Self.metricsAddress(for: configuration)) { address in
      MetricsServer(
        address: address, readiness: { await monitor.readiness() }, refresh: { await monitor.refreshGauges() })
    }
    services.append(metricsListener)
    // Scheduled backups need a file to copy: an in-memory database (tests, `demo`) has none.
    if let backup = configuration.backup, let path = database.path {
      services.append(BackupService(databasePath: path, settings: backup))
    }
    self.services = services
  }

  /// The bot's one forum client: its session kept in the database.
  static func makeForumsClient(configuration: AppConfiguration, database: BotDatabase, environment: [String: String])
    throws -> ForumsClient
  {
    ForumsClient(
      configuration: try configuration.forum.clientConfiguration(environment: environment),
      cookieStore: DatabaseCookieStore(database: database), logger: Logger(label: "awfulbot.forums"))
  }

  /// The engine's tunables the config sets (`polling`, the private-message excerpt, the chat time zone, the caps per
  /// room of `commands`).
  static func engineConfiguration(for settings: AppConfiguration) -> EngineConfiguration {
    var engine = EngineConfiguration()
    if let seconds = settings.polling?.bookmarksSeconds {
      engine.bookmarksInterval = .seconds(seconds)
    }
    if let seconds = settings.polling?.announcementsSeconds {
      engine.announcementsInterval = .seconds(seconds)
    }
    if let seconds = settings.polling?.forumsSeconds { engine.forumsInterval = .seconds(seconds) }
    if let seconds = settings.polling?.bookmarksMinimumSeconds {
      engine.bookmarksMinimumInterval = .seconds(seconds)
    }
    if let seconds = settings.polling?.bookmarksFullSweepSeconds {
      engine.bookmarksFullSweepInterval = .seconds(seconds)
    }
    if let seconds = settings.polling?.forumsMinimumSeconds {
      engine.forumsMinimumInterval = .seconds(seconds)
    }
    if let cap = settings.polling?.replayCap { engine.replayCap = cap }
    engine.sweepStepLead = .seconds(settings.forum.requestSpacingSeconds ?? 1)
    if let seconds = settings.polling?.privateMessagesSeconds {
      engine.privateMessagesInterval = .seconds(seconds)
    }
    if let seconds = settings.polling?.lepersSeconds { engine.lepersInterval = .seconds(seconds) }
    // The private-message rooms are added by `seedRooms`, each once its id is known.
    if let privateMessages = settings.privateMessages {
      engine.privateMessageExcerpt = privateMessages.excerpt ?? false
    }
    if let seconds = settings.polling?.maximumBackoffSeconds {
      engine.maximumPollBackoff = .seconds(seconds)
    }
    if let zone = settings.chatTimeZone {
      engine.timeZone = zone
    }
    if let cap = settings.commands?.forumsPerRoom { engine.maximumForumsPerRoom = cap }
    if let cap = settings.commands?.watchedThreadsPerRoom { engine.maximumWatchedThreadsPerRoom = cap }
    return engine
  }

  /// The address of the metrics listener the config asks for; nil when it is off.
  static func metricsAddress(for configuration: AppConfiguration) -> HostPort? {
    guard let metrics = configuration.metrics, metrics.isEnabled else { return nil }
    return metrics.address
  }

  /// The role grants of `roles`.
  static func permissionPolicy(for configuration: AppConfiguration) -> PermissionPolicy {
    PermissionPolicy(
      grants: grants(from: configuration.roles ?? []), forumNames: forumNames(from: configuration.roles ?? []))
  }

  /// How long graceful shutdown may take before what is still running is cancelled.
  static let shutdownGrace = Duration.seconds(4)

  /// Runs every service until SIGTERM/SIGINT (or `shutdownAfter`), then shuts them down gracefully. Configured rooms
  /// `seedRooms` could not resolve are tried again after `roomRetryDelay`, and then less and less often.
  package func run(
    extraServices: [any Service] = [], shutdownAfter duration: Duration? = nil,
    signals: [UnixSignal] = [.sigterm, .sigint], roomRetryDelay: Duration = .seconds(5),
    reloadingFrom configurationPath: String? = nil
  ) async throws {
    var extraServices = extraServices
    // SIGHUP reads the config again instead of ending the bot.
    if let configurationPath {
      extraServices.append(ConfigurationReloader(application: self, path: configurationPath, logger: logger))
    }
    if !pendingRooms.withLock({ $0.isEmpty }) {
      extraServices.append(ConfiguredRoomRetry(application: self, initialDelay: roomRetryDelay))
    }
    // A service that ends before shutdown (a transport stopped for good, its event stream, the room retry once every
    // room is seeded) leaves the others running; one that throws still ends the bot (the last transport that could
    // work, a poller failure).
    var services = (self.services + extraServices).map {
      ServiceGroupConfiguration.ServiceConfiguration(service: $0, successTerminationBehavior: .ignore)
    }
    if let duration {
      services.append(
        .init(service: ShutdownTimer(after: duration), successTerminationBehavior: .gracefullyShutdownGroup))
    }
    var configuration = ServiceGroupConfiguration(
      services: services, gracefulShutdownSignals: signals, cancellationSignals: [], logger: logger)
    // Shutdown lets the row in hand finish, but not for long: a request to a homeserver that stopped answering
    // would otherwise hold SIGTERM up to its timeout. Cancelling it is safe: the row stays pending and goes out
    // again at the next start under the same transaction id, which the homeserver deduplicates.
    configuration.maximumGracefulShutdownDuration = Self.shutdownGrace
    let group = ServiceGroup(configuration: configuration)
    do {
      try await group.run()
    } catch {
      try? await client.shutdown()
      throw error
    }
    try await client.shutdown()
  }

  static func databasePath(for configuration: AppConfiguration) throws -> String {
    let directory = configuration.dataDirectory ?? FileManager.default.currentDirectoryPath
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return URL(fileURLWithPath: directory).appendingPathComponent("awfulbot.sqlite").path
  }

  static func grants(from roles: [AppConfiguration.RoleGrant]) -> [String: [String: Role]] {
    var grants: [String: [String: Role]] = [:]
    for grant in roles {
      grants[grant.transport, default: [:]][grant.user] = grant.role
    }
    return grants
  }

  /// transport → user → forum username, from `roles[].forumName`.
  static func forumNames(from roles: [AppConfiguration.RoleGrant]) -> [String: [String: String]] {
    var names: [String: [String: String]] = [:]
    for grant in roles {
      if let name = grant.forumName?.trimmingCharacters(in: .whitespaces) {
        names[grant.transport, default: [:]][grant.user] = name
      }
    }
    return names
  }
}

extension RoomSubscriptionSpec {
  var target: SubscriptionTarget {
    switch self {
    case .bookmarks(let stars): stars.isEmpty ? .bookmarks : .stars(stars)
    case .announcements: .announcements
    case .thread(let id): .thread(id: id)
    case .forum(let id): .forum(id: id)
    case .lepers: .lepers
    }
  }
}
