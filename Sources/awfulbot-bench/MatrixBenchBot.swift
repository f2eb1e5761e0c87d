import AwfulBotApp
import BotCore
import BotStore
import ChatBridge
import FakeForum
import ForumsClient
import Foundation
import Logging
import MatrixTransport
import ServiceLifecycle
import Synchronization

/// The bot as the app wires it, minus the poller and commands: a SQLite database in a temp folder, the real forum
/// client against the emulator, the engine, the Matrix transport (its state in the same database) and, when asked,
/// the dispatcher service. The benchmark calls `engine.poll` itself so it knows when a cycle starts and ends.
final class MatrixBenchBot: Sendable {
  let database: BotDatabase
  let forumsClient: ForumsClient
  let engine: BotEngine
  let transport: MatrixTransport
  let dispatcher: Dispatcher
  private let group: ServiceGroup
  private let running = Mutex<Task<Void, any Error>?>(nil)

  /// - Parameter runsDispatcher: false leaves the outbox to `dispatcher.drain()` calls (the throughput run).
  init(
    forumURL: URL, homeserver: URL, account: SynapseAccount, owner: String, databasePath: String,
    runsDispatcher: Bool, pickleKey: String? = nil, images: MatrixImageSettings = MatrixImageSettings(enabled: false),
    logger: Logger
  ) throws {
    database = try BotDatabase(path: databasePath)
    forumsClient = ForumsClient(
      configuration: ForumsClientConfiguration(
        baseURL: forumURL,
        credentials: ForumCredentials(username: FakeForumSeed.botUsername, password: FakeForumSeed.botPassword),
        minimumRequestSpacing: .zero),
      logger: logger)
    var configuration = MatrixTransportConfiguration(
      name: "matrix", homeserver: homeserver, userID: account.userID, password: account.password,
      allowedInviters: [owner], pickleKey: pickleKey)
    configuration.images = images
    transport = MatrixTransport(
      configuration: configuration,
      stateStore: BotDatabaseStateStore(database: database, transport: configuration.name), logger: logger)
    engine = BotEngine(
      database: database, forum: forumsClient,
      transports: [transport.name: transport.capabilities], logger: logger)
    dispatcher = Dispatcher(engine: engine, transport: transport, logger: logger)
    var services: [any Service] = [transport]
    if runsDispatcher { services.append(dispatcher) }
    group = ServiceGroup(
      configuration: ServiceGroupConfiguration(
        services: services.map { .init(service: $0) }, gracefulShutdownSignals: [], cancellationSignals: [],
        logger: logger))
  }

  /// Runs `body` with the services started and the transport signed in; always shuts everything down.
  func run<T>(_ body: (MatrixBenchBot) async throws -> T) async throws -> T {
    do {
      try await start()
      let result = try await body(self)
      await stop()
      return result
    } catch {
      await stop()
      throw error
    }
  }

  func room(_ id: String) -> RoomRef { RoomRef(transport: transport.name, room: id) }

  /// Waits until the transport has accepted the owner's invite (it syncs in the background).
  func waitUntilJoined(_ room: String, timeout: Duration = .seconds(30)) async throws {
    let deadline = ContinuousClock.now + timeout
    while !transport.joinedRooms.contains(room) {
      guard ContinuousClock.now < deadline else {
        throw MatrixBenchmarkError.failed("the bot did not join \(room) within \(timeout)")
      }
      try await Task.sleep(for: .milliseconds(20))
    }
  }

  func pendingRows() async throws -> Int {
    try await database.read { tx in try tx.allOutboxRows() }.filter { $0.state == .pending }.count
  }

  private func start() async throws {
    let group = group
    running.withLock { $0 = Task { try await group.run() } }
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
      switch transport.status {
      case .connected: return
      case .stopped(let reason): throw MatrixBenchmarkError.failed("the bot's Matrix transport stopped: \(reason)")
      default: try await Task.sleep(for: .milliseconds(20))
      }
    }
    throw MatrixBenchmarkError.failed("the bot's Matrix transport did not connect: \(transport.status)")
  }

  private func stop() async {
    await group.triggerGracefulShutdown()
    if let task = running.withLock({ $0 }) { _ = await task.result }
    try? await forumsClient.shutdown()
    try? database.close()
  }
}
