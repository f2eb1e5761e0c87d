import AwfulBotApp
import AwfulBotForumTestKit
import AwfulBotIRCTestKit
import AwfulBotTestKit
import BotCore
import BotStore
import ChatBridge
import FakeForum
import ForumsClient
import Foundation
import Logging
import ServiceLifecycle

@testable import IRCTransport

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

/// The emulated forum, the HTTP client on it, a real SQLite store and the engine, for end-to-end relay tests.
struct ForumSide {
  let server: FakeForumServer
  let client: ForumsClient
  let engine: BotEngine

  static func start(transport: IRCTransport, excerptLength: Int = 400) async throws -> ForumSide {
    let server = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo))
    let root = try await server.start()
    let configuration = ForumsClientConfiguration.test(baseURL: URL(string: root.absoluteString + "/")!)
    let client = ForumsClient(configuration: configuration, cookieStore: InMemoryCookieStore(), logger: Logger.quiet())
    var engineConfiguration = EngineConfiguration()
    engineConfiguration.jitter = 0
    engineConfiguration.excerptLength = excerptLength
    engineConfiguration.deliveryBackoffBase = .milliseconds(200)
    engineConfiguration.maximumDeliveryBackoff = .seconds(1)
    engineConfiguration.maximumDeliveryAttempts = 50
    let engine = BotEngine(
      database: try BotDatabase(), forum: client,
      transports: [transport.name: transport.capabilities], configuration: engineConfiguration, logger: Logger.quiet())
    return ForumSide(server: server, client: client, engine: engine)
  }

  func dispatcher(for transport: IRCTransport) -> Dispatcher {
    Dispatcher(engine: engine, transport: transport, idleWait: .milliseconds(500), logger: Logger.quiet())
  }

  func stop() async {
    try? await client.shutdown()
    await server.stop()
  }
}

extension ForumSide {
  /// Commands from the transport answered straight through it (no outbox), with the standard command set. The
  /// transport's configured channels are named rooms, as a config that lists them makes them (channel operators
  /// act for the forum account there, not in a private query).
  func commandService(
    for transport: IRCTransport, nicks: [String], grants: [String: [String: Role]] = [:],
    budget: CommandBudget.Limits = .off
  ) -> ChatEventService {
    let named = transport.configuration.channels.map {
      RoomRef(transport: transport.name, room: IRCCaseMapping.fold($0.name))
    }
    let router = CommandRouter(
      parser: CommandParser(prefix: "!", botNames: nicks),
      permissions: SharedPermissions(PermissionPolicy(grants: grants, namedRooms: Set(named))),
      forum: engine.forum, engine: engine, composer: engine.composer, logger: Logger.quiet(),
      // The scripts say dozens of commands in seconds; the budget has suites of its own (`HostileIRCTests`).
      budget: CommandBudget(limits: budget))
    return ChatEventService(
      transport: transport, router: router, engine: engine, logger: Logger.quiet(),
      deliver: ChatEventService.directDelivery(via: transport, logger: Logger.quiet()))
  }
}
