import AwfulBotApp
import AwfulBotForumTestKit
import AwfulBotMatrixTestKit
import AwfulBotTestKit
import BotCore
import BotStore
import ChatBridge
import ForumsClient
import Foundation
import Logging
import MatrixTransport
import ServiceLifecycle
import Synchronization
import Testing

/// One run of the bot against the test world, wired like the app: database file, forum client, engine, the Matrix
/// transport, its dispatcher and command listener, and the app's kick/ban → pause wiring (`MatrixMembershipService`),
/// all in one `ServiceGroup`.
final class MatrixBotProcess: Sendable {
  let world: MatrixTestWorld
  let database: BotDatabase
  let forumsClient: ForumsClient
  let engine: BotEngine
  let transport: MatrixTransport
  let dispatcher: Dispatcher
  let stateStore: BotDatabaseStateStore
  /// Who may do what; the rooms the bot joins are named in it unless `namesJoinedRooms` is false.
  let permissions: SharedPermissions
  private let services: [any Service]
  private let running = Mutex<RunningServices?>(nil)
  private let changes: MembershipLog

  /// - Parameters:
  ///   - dispatchVia: wraps the transport the dispatcher sends through (to simulate a crash mid-send).
  ///   - runsDispatcher: false leaves the outbox to `dispatcher.drain()` calls in the test.
  ///   - databaseName: another database in the world's folder (a new machine for the same account).
  init(
    world: MatrixTestWorld, configure: (inout MatrixTransportConfiguration) -> Void = { _ in },
    engineConfiguration: EngineConfiguration = MatrixBotProcess.engineConfiguration,
    dispatchVia: ((MatrixTransport) -> any ChatTransport)? = nil, runsDispatcher: Bool = true,
    databaseName: String? = nil, namesJoinedRooms: Bool = true, budget: CommandBudget.Limits = .off
  ) throws {
    self.world = world
    database = try BotDatabase(
      path: databaseName.map { world.directory.appendingPathComponent($0).path } ?? world.databasePath)
    let clientConfiguration = ForumsClientConfiguration.test(baseURL: world.forumURL)
    forumsClient = ForumsClient(
      configuration: clientConfiguration, cookieStore: InMemoryCookieStore(), logger: Logger.quiet())
    var configuration = MatrixTransportConfiguration(
      name: "matrix", homeserver: SynapseEnvironment.url!, userID: world.botAccount.userID,
      password: world.botAccount.password, allowedInviters: ["localhost"], syncTimeoutSeconds: 5)
    configure(&configuration)
    stateStore = BotDatabaseStateStore(database: database, transport: configuration.name)
    // The forum's own attachments come through the forum client, as the app wires them.
    transport = MatrixTransport(
      configuration: configuration, stateStore: stateStore,
      retryPolicy: MatrixRetryPolicy(backoffBase: .milliseconds(200), maximumBackoff: .seconds(2)),
      logger: Logger.quiet(), forumAttachments: ForumsClientAttachments(client: forumsClient))
    engine = BotEngine(
      database: database, forum: forumsClient,
      transports: [transport.name: transport.capabilities], configuration: engineConfiguration,
      logger: Logger.quiet())
    dispatcher = Dispatcher(
      engine: engine, transport: dispatchVia?(transport) ?? transport, idleWait: .seconds(1), logger: Logger.quiet())
    let engine = engine
    let permissions = SharedPermissions(PermissionPolicy())
    self.permissions = permissions
    let router = CommandRouter(
      parser: CommandParser(prefix: "!", botNames: ["awfulbot"]), permissions: permissions,
      forum: engine.forum, engine: engine, composer: engine.composer, logger: Logger.quiet(),
      // The scripts say dozens of commands in seconds; the budget has cases of its own (`HostileUsers`).
      budget: CommandBudget(limits: budget))
    let changes = MembershipLog()
    self.changes = changes
    // The test users' rooms stand for rooms the operator's config names (room power counts for the forum account
    // there); the hostile suite turns this off, as for a stranger's own room.
    let events = ChatEventService(
      transport: transport, router: router, engine: engine, logger: Logger.quiet(),
      observe: { event in
        guard case .membership(let change) = event else { return }
        changes.append(change)
        if namesJoinedRooms, change.kind == .joined {
          permissions.nameRoom(RoomRef(transport: change.transport, room: change.room))
        }
      }
    ) { reply, message, answer in
      try? await engine.outbox.enqueueReply(reply, answering: message, answer: answer)
    }
    services = [transport, events] + (runsDispatcher ? [dispatcher] : [])
  }

  static var engineConfiguration: EngineConfiguration {
    var configuration = EngineConfiguration()
    configuration.jitter = 0
    configuration.deliveryBackoffBase = .milliseconds(200)
    configuration.maximumDeliveryBackoff = .seconds(2)
    configuration.maximumDeliveryAttempts = 30
    return configuration
  }

  var membershipChanges: [MembershipChange] { changes.entries }

  /// Starts the services and waits until the transport is signed in and has synced once.
  func start() async throws {
    let services = services
    running.withLock { $0 = RunningServices(services) }
    let status = try await readUntil(every: .milliseconds(50), timeout: .seconds(30)) {
      transport.status
    } until: {
      switch $0 {
      case .connected, .stopped: true
      default: false
      }
    }
    switch status {
    case .connected: return
    case .stopped(let reason): throw MatrixHuman.HumanError(description: "transport stopped: \(reason)")
    default: throw MatrixHuman.HumanError(description: "transport did not connect in time: \(status)")
    }
  }

  /// Graceful shutdown of every service, then the forum client and the database.
  func stop() async {
    if let running = running.withLock({ $0 }) { await running.stop(within: .seconds(60)) }
    try? await forumsClient.shutdown()
    try? database.close()
  }

  /// Runs `body` with a started bot and always stops it.
  func run<T>(_ body: (MatrixBotProcess) async throws -> T) async throws -> T {
    try await using(self, tearDown: { await $0.stop() }) { bot in
      try await bot.start()
      return try await body(bot)
    }
  }

  /// Waits until the transport has the room in its joined set (it syncs in the background). A minute: a bot started
  /// again signs in, sets up its encryption and syncs while the other suites load the homeserver, and a CI-like run
  /// once took more than 20 s for that.
  func waitUntilJoined(_ room: String, timeout: Duration = .seconds(60)) async throws {
    try await waitUntil("the bot joined \(room)", timeout: timeout, every: .milliseconds(50)) {
      transport.joinedRooms.contains(room)
    }
  }

  /// Polls the bookmarks once (as the poller would), queuing new posts; the dispatcher sends them.
  @discardableResult
  func pollBookmarks() async -> PollReport {
    await engine.polling.poll(.bookmarks)
  }

  func room(_ id: String) -> RoomRef { RoomRef(transport: transport.name, room: id) }

  func outbox() async throws -> [OutboxRecord] {
    try await database.read { tx in try tx.allOutboxRows() }
  }

  /// Polls the outbox until every row is delivered (or the deadline passes).
  func waitUntilOutboxDelivered(timeout: Duration = .seconds(30)) async throws -> [OutboxRecord] {
    try await readUntil(every: .milliseconds(100), timeout: timeout) {
      try await outbox()
    } until: {
      $0.allSatisfy { $0.state != .pending }
    }
  }
}

final class MembershipLog: Sendable {
  private let log = Mutex<[MembershipChange]>([])
  func append(_ change: MembershipChange) { log.withLock { $0.append(change) } }
  var entries: [MembershipChange] { log.withLock { $0 } }
}
