import AwfulBotTestKit
import ChatBridge
import AwfulBotApp
import BotCore
import BotStore
import FakeForum
import ForumsClient
import Foundation
import Logging
import ServiceLifecycle

@testable import IRCTransport

/// Test logs stay quiet unless `AWFULBOT_IRC_TEST_LOG=debug` (or another level) is set.
let testLogger: Logger = {
  var logger = Logger(label: "awfulbot.irc.test")
  logger.logLevel =
    ProcessInfo.processInfo.environment["AWFULBOT_IRC_TEST_LOG"].flatMap { Logger.Level(rawValue: $0) } ?? .critical
  return logger
}()

/// A bot configuration for the test network: TLS with the run's CA, SASL PLAIN with the bot's account, fast
/// reconnects and a loose flood bucket (tests that measure flood control set their own).
func botConfiguration(
  _ environment: IRCTestEnvironment, nick: String, channels: [String], tls: Bool = true
) -> IRCTransportConfiguration {
  var configuration = IRCTransportConfiguration(
    name: "irc", host: environment.host, port: tls ? environment.tlsPort : environment.port, tls: tls, nick: nick)
  configuration.caFile = environment.caFile
  configuration.sasl = .init(mechanism: .plain, account: environment.account, password: environment.password)
  configuration.channels = channels.map { .init(name: $0) }
  configuration.floodBurst = 20
  configuration.floodIntervalSeconds = 0.02
  configuration.reconnectDelaySeconds = 0.3
  configuration.maximumReconnectDelaySeconds = 1
  configuration.sendWaitSeconds = 20
  configuration.quitMessage = "test over"
  return configuration
}

/// The IRC transport running in a service group (with whatever other services a test adds), stopped gracefully.
final class RunningBot: Sendable {
  let transport: IRCTransport
  let group: ServiceGroup
  let task: Task<Void, any Error>

  init(_ transport: IRCTransport, with services: [any Service] = []) {
    self.transport = transport
    let group = ServiceGroup(
      configuration: ServiceGroupConfiguration(services: [transport] + services, logger: testLogger))
    self.group = group
    self.task = Task { try await group.run() }
  }

  convenience init(_ configuration: IRCTransportConfiguration, with services: [any Service] = []) throws {
    self.init(try IRCTransport(configuration: configuration, logger: testLogger), with: services)
  }

  /// Graceful shutdown (QUIT), bounded: a service that does not stop within 10 s is cancelled.
  func stop() async {
    await group.triggerGracefulShutdown()
    let task = self.task
    let watchdog = Task {
      try await Task.sleep(for: .seconds(10))
      task.cancel()
    }
    _ = await task.result
    watchdog.cancel()
  }
}

/// The emulated forum, the HTTP client on it, a real SQLite store and the engine, for end-to-end relay tests.
struct ForumSide {
  let server: FakeForumServer
  let client: ForumsClient
  let engine: BotEngine

  static func start(transport: IRCTransport, excerptLength: Int = 400) async throws -> ForumSide {
    let server = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo))
    let root = try await server.start()
    let configuration = ForumsClientConfiguration(
      baseURL: URL(string: root.absoluteString + "/")!,
      credentials: ForumCredentials(username: FakeForumSeed.botUsername, password: FakeForumSeed.botPassword),
      minimumRequestSpacing: .zero, connectTimeout: .seconds(5), requestTimeout: .seconds(20),
      retry: RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(10), maximumDelay: .milliseconds(40)),
      announcementsForumID: "273")
    let client = ForumsClient(configuration: configuration, cookieStore: InMemoryCookieStore(), logger: testLogger)
    var engineConfiguration = EngineConfiguration()
    engineConfiguration.jitter = 0
    engineConfiguration.excerptLength = excerptLength
    engineConfiguration.deliveryBackoffBase = .milliseconds(200)
    engineConfiguration.maximumDeliveryBackoff = .seconds(1)
    engineConfiguration.maximumDeliveryAttempts = 50
    let engine = BotEngine(
      database: try BotDatabase(), forum: ForumsClientForum(client: client),
      transports: [transport.name: transport.capabilities], configuration: engineConfiguration, logger: testLogger)
    return ForumSide(server: server, client: client, engine: engine)
  }

  func dispatcher(for transport: IRCTransport) -> Dispatcher {
    Dispatcher(engine: engine, transport: transport, idleWait: .milliseconds(500), logger: testLogger)
  }

  func stop() async {
    try? await client.shutdown()
    await server.stop()
  }
}

extension ForumSide {
  /// Commands from the transport answered straight through it (no outbox), with the standard command set.
  func commandService(for transport: IRCTransport, nicks: [String]) -> ChatEventService {
    let router = CommandRouter(
      parser: CommandParser(prefix: "!", botNames: nicks), permissions: PermissionPolicy(),
      forum: engine.forum, engine: engine, composer: engine.composer, logger: testLogger)
    return ChatEventService(
      transport: transport, router: router, engine: engine, logger: testLogger,
      deliver: ChatEventService.directDelivery(via: transport, logger: testLogger))
  }
}
