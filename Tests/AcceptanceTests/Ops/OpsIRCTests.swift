import AwfulBotApp
import AwfulBotAppTestKit
import AwfulBotIRCTestKit
import AwfulBotTestKit
import ChatBridge
import FakeForum
import ForumsClient
import Foundation
import IRCTransport
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Testing

/// `awfulbot check` and readiness for IRC transports, against the real InspIRCd + Atheme network the scripts start.
@Suite(
  "ops: IRC check and readiness on InspIRCd + Atheme",
  .enabled(if: OpsIRCEnvironment.current != nil, OpsIRCEnvironment.skipReason), .timeLimit(.minutes(3)))
struct OpsIRCTests {
  let network: OpsIRCEnvironment

  init() throws {
    network = try #require(OpsIRCEnvironment.current)
  }

  // MARK: Probe passes

  @Test("plain TCP: registers, quits, and says as whom and where")
  func probePlain() async throws {
    let nick = OpsIRCEnvironment.uniqueNick()
    let result = try await probeIRC(network.options(nick: nick, tls: false))
    #expect(result.outcome == .pass, "\(result.line)")
    #expect(result.detail == "registered as \(nick) on \(network.host):\(network.port) (plain TCP)")
  }

  @Test("TLS with the configured CA file")
  func probeTLS() async throws {
    let nick = OpsIRCEnvironment.uniqueNick()
    let result = try await probeIRC(network.options(nick: nick, tls: true))
    #expect(result.outcome == .pass, "\(result.line)")
    #expect(result.detail == "registered as \(nick) on \(network.host):\(network.tlsPort) (TLS)")
  }

  @Test("SASL PLAIN with the password from the environment: the account is named, the password never is")
  func probeSASL() async throws {
    let nick = OpsIRCEnvironment.uniqueNick()
    var options = network.options(nick: nick, tls: true)
    options["sasl"] = .object([
      "account": .string(network.account), "password": .object(["env": .string("OPS_IRC_PW")]),
    ])
    let result = try await probeIRC(options, environment: ["OPS_IRC_PW": network.password])
    #expect(result.outcome == .pass, "\(result.line)")
    #expect(
      result.detail
        == "registered as \(nick) on \(network.host):\(network.tlsPort) (TLS, SASL PLAIN as \(network.account))")
    #expect(!result.line.contains(network.password))
  }

  // MARK: Probe failures

  @Test("a wrong SASL password: check says the sentence run stops with, names the variable, never the password")
  func probeWrongSASLPassword() async throws {
    let wrong = "wrong-\(UUID().uuidString)"
    var options = network.options(nick: OpsIRCEnvironment.uniqueNick(), tls: true)
    options["sasl"] = .object(["account": .string(network.account), "password": .string(wrong)])
    let result = try await probeIRC(options, name: "irc-ops", settingsPath: "transports[1]")
    #expect(result.outcome == .fail)
    #expect(
      result.detail == "SASL login for account \(network.account) was refused: check transports[1].sasl.password",
      "\(result.line)")
    #expect(result.fix?.hasPrefix("the server answered 904") == true, "\(result.line)")
    #expect(result.fix?.contains("AWFULBOT_IRC_OPS_SASL_PASSWORD") == true, "\(result.line)")
    #expect(!result.line.contains(wrong) && !result.line.contains(network.password))
  }

  @Test("run: a wrong SASL password stops the bot with exit status 78 and the same sentence; it never joins")
  func runWithWrongSASLPassword() async throws {
    let forum = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo))
    let baseURL = try await forum.start()
    let directory = TestScratch.path("awfulbot-ops-sasl")
    let nick = OpsIRCEnvironment.uniqueNick("sasl")
    let object: [String: Any] = [
      "forum": [
        "baseURL": baseURL.absoluteString, "username": FakeForumSeed.botUsername, "password": ["env": "RUN_PW"],
      ],
      "dataDirectory": directory.path,
      // The only chat service: with it refused nothing can work, so the bot stops (with another transport that
      // works, this one would be stopped and the other would go on; see TransportSupervisor).
      "transports": [
        [
          "type": "irc", "name": "irc-ops", "server": "\(network.host):\(network.tlsPort)", "nick": nick,
          "caFile": network.caFile, "channels": ["#ops-sasl"], "sasl": ["account": network.account],
        ]
      ],
      "metrics": ["enabled": false],
    ]
    let path = try OpsConfig.temporaryFile(JSONSerialization.data(withJSONObject: object), mode: 0o600)
    let wrong = "wrong-\(UUID().uuidString)"
    let environment = ["RUN_PW": FakeForumSeed.botPassword, "AWFULBOT_IRC_OPS_SASL_PASSWORD": wrong]
    let configuration = try AppConfiguration.load(path: path, environment: environment)
    let application = try BotApplication(
      configuration: configuration,
      transportContext: TransportBuildContext(logger: Logger.quiet()),
      logger: Logger.quiet(), environment: environment)
    let run = Task { try await application.run(shutdownAfter: .seconds(30), signals: []) }
    let result = await run.result
    await forum.stop()
    try? FileManager.default.removeItem(at: directory)
    guard case .failure(let error) = result else {
      Issue.record("the bot kept running (until the 30 s timer) with a refused SASL login")
      return
    }
    #expect("\(error)" == "SASL login for account \(network.account) was refused: check transports[0].sasl.password")
    #expect(StartupFailure.exitCode(for: error) == 78)
    #expect(!"\(error)".contains(wrong))
  }

  @Test("a port nobody listens on: connection refused, with the address and what to check")
  func probeRefused() async throws {
    let port = try await closedLoopbackPort()
    var options = network.options(nick: OpsIRCEnvironment.uniqueNick(), tls: false)
    options["server"] = .string("127.0.0.1:\(port)")
    let result = try await probeIRC(options)
    #expect(result.outcome == .fail)
    #expect(result.detail == "connection refused at 127.0.0.1:\(port)")
    #expect(result.fix?.hasPrefix("is the server right?") == true, "\(result.line)")
  }

  @Test("TLS without the private CA: the handshake fails and the fix is caFile")
  func probeTLSWithoutCA() async throws {
    let result = try await probeIRC(network.options(nick: OpsIRCEnvironment.uniqueNick(), tls: true, caFile: false))
    #expect(result.outcome == .fail)
    #expect(
      result.detail
        == "TLS handshake failed: the server's certificate is not signed by a trusted CA at "
        + "\(network.host):\(network.tlsPort)", "\(result.line)")
    #expect(result.fix?.contains("set caFile for a private CA") == true)
  }

  @Test("plain text to the TLS port does not register, and the check says to look at tls")
  func probePlainToTLSPort() async throws {
    var options = network.options(nick: OpsIRCEnvironment.uniqueNick(), tls: false)
    options["server"] = .string("\(network.host):\(network.tlsPort)")
    options["registrationTimeoutSeconds"] = .number(3)
    let result = try await probeIRC(options)
    #expect(result.outcome == .fail)
    #expect(result.fix?.hasPrefix("is tls right for this port") == true, "\(result.line)")
  }

  // MARK: Readiness

  @Test(
    "connection events: connecting, connected once registered, retrying after a drop, connected again; alternate nick")
  func readiness() async throws {
    let nick = OpsIRCEnvironment.uniqueNick("rdy")
    try await OpsIRCRelay.with(upstreamHost: network.host, upstreamPort: network.port) { relay in
      var configuration = IRCTransportConfiguration(
        name: "irc-ready", host: "127.0.0.1", port: relay.port, tls: false, nick: nick)
      configuration.reconnectDelaySeconds = 2
      configuration.maximumReconnectDelaySeconds = 2
      configuration.reconnectJitter = 0
      // What the transport logged, shown when the drop is not noticed (a failure seen only in full runs).
      let log = LogCapture()
      let transport = try IRCTransport(configuration: configuration, logger: .capturing(into: log))
      // What status, readiness and the metrics read: the transport's own connection events.
      let connections = TransportConnections()
      let observe = connections.observer(for: "irc-ready")
      let following = Task { for await event in transport.events { observe(event) } }
      defer { following.cancel() }
      func state() -> ConnectionState { connections.entry("irc-ready").state }
      #expect(state() == .connecting)

      let running = RunningServices([transport])
      #expect(
        try await eventually(timeout: .seconds(15), every: .milliseconds(100)) { state() == .connected })

      var options = network.options(nick: nick, tls: false)
      options["alternateNicks"] = .array([.string(nick + "_")])
      let probe = try await probeIRC(options)
      #expect(
        probe.detail
          == "registered as \(nick)_ on \(network.host):\(network.port) (plain TCP); \(nick) refused (in use?)")

      let closed = await relay.cut()
      let cutAt = ContinuousClock.now
      // Generous: at the start of a full run hundreds of tests start at once on two cores, and this wait once ran
      // out at 10 s (twice in a row, never when the suite runs alone, with or without CPU hogs).
      let noticed = try await eventually(timeout: .seconds(30), every: .milliseconds(100)) { state() != .connected }
      let seen = await transport.linkDescription()
      #expect(
        noticed,
        """
        the drop went unnoticed for \(ContinuousClock.now - cutAt): the relay closed \(closed) channels of \
        \(relay.counts) connections; the transport sees \(seen); it logged:
        \(log.lines.joined(separator: "\n"))
        """)
      #expect(state() == .retrying(reason: "the server closed the connection"))
      #expect(state().problem == "reconnecting (the server closed the connection)")
      #expect(
        try await eventually(timeout: .seconds(30), every: .milliseconds(100)) { state() == .connected })
      #expect(await transport.registrationCount() == 2)
      #expect(connections.entry("irc-ready").connections == 2)
      // The heartbeat counts what the events told: one reconnect, though no beat saw it disconnected.
      try await OpsDaemonStandIn.withDatabase { databasePath, database in
        let daemon = OpsDaemonStandIn(database: database, transports: [transport], connections: connections)
        await daemon.monitor.beat()
        try await daemon.shutdown()
        let status = try StatusReport.read(databasePath: databasePath, transportNames: ["irc-ready"])
        #expect(status.transports.first { $0.name == "irc-ready" }?.reconnects == 1)
      }

      await running.stop()
      #expect(
        try await eventually(timeout: .seconds(10), every: .milliseconds(50)) {
          state() == .stopped(reason: "shut down")
        })
    }
  }

  // MARK: The whole check

  @Test("awfulbot check over a config with an IRC transport (TLS, SASL from AWFULBOT_*) and the emulator: all ✓")
  func wholeCheck() async throws {
    let forum = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo, pageNav: .new))
    let baseURL = try await forum.start()
    let directory = TestScratch.path("awfulbot-ops-irc")
    let nick = OpsIRCEnvironment.uniqueNick()
    let object: [String: Any] = [
      "forum": [
        "baseURL": baseURL.absoluteString, "username": FakeForumSeed.botUsername, "password": ["env": "CHECK_PW"],
      ],
      "dataDirectory": directory.path,
      "transports": [
        ["type": "console"],
        [
          "type": "irc", "name": "irc-ops", "server": "\(network.host):\(network.tlsPort)", "nick": nick,
          "caFile": network.caFile, "channels": ["#ops-check"], "sasl": ["account": network.account],
        ],
      ],
      "metrics": ["listen": "127.0.0.1:9464"],
    ]
    let path = try OpsConfig.temporaryFile(JSONSerialization.data(withJSONObject: object), mode: 0o600)
    let environment = [
      "CHECK_PW": FakeForumSeed.botPassword, "AWFULBOT_IRC_OPS_SASL_PASSWORD": network.password,
    ]
    let results = await ConfigurationCheck(configurationPath: path, environment: environment).run()
    await forum.stop()

    #expect(results.allSatisfy { $0.outcome == .pass }, "\(results.map(\.line))")
    #expect(
      results.map(\.line).contains(
        "✓ transport irc-ops (irc): registered as \(nick) on \(network.host):\(network.tlsPort) "
          + "(TLS, SASL PLAIN as \(network.account))"))
    #expect(!results.map(\.line).joined().contains(network.password))
  }
}
