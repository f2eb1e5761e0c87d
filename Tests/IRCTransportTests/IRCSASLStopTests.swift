import AwfulBotIRCTestKit
import AwfulBotTestKit
import Foundation
import Testing

@testable import IRCTransport

/// A SASL login that cannot succeed stops the transport before it registers (what `awfulbot run` turns into exit
/// 78), against a scripted server: refused, not offered, no CAP at all; a refusal after the bot was running is a
/// reconnect instead. NickServ IDENTIFY only with a configured password.
@Suite("IRC: SASL failure is fatal at start, NickServ only when configured", .timeLimit(.minutes(1)))
struct IRCSASLStopTests {
  static func configuration(port: Int, sasl: Bool = true) -> IRCTransportConfiguration {
    var configuration = IRCTransportConfiguration(
      name: "irc-scripted", host: "127.0.0.1", port: port, tls: false, nick: "awfulbot")
    if sasl { configuration.sasl = .init(mechanism: .plain, account: "botaccount", password: "not-this-one") }
    configuration.channels = [.init(name: "#goons")]
    configuration.settingsPath = "transports[1]"
    configuration.reconnectDelaySeconds = 0.1
    configuration.maximumReconnectDelaySeconds = 0.2
    configuration.registrationTimeoutSeconds = 5
    return configuration
  }

  /// The error the transport's `run` ends with, within a few seconds.
  static func runUntilStopped(_ configuration: IRCTransportConfiguration) async throws -> (any Error)? {
    let bot = try RunningIRCTransport(configuration)
    let watchdog = Task {
      try await Task.sleep(for: .seconds(10))
      await bot.stop()
    }
    defer { watchdog.cancel() }
    if case .failure(let error) = await bot.result { return error }
    return nil
  }

  @Test("904 at the first connection: the transport stops with the sentence; no CAP END, no NickServ, no retry")
  func refusedAtStart() async throws {
    try await IRCScriptedServer.with(
      IRCScriptedServer.registering(nick: "awfulbot", caps: "sasl=PLAIN multi-prefix") { _ in false }
    ) { server in
      var configuration = Self.configuration(port: server.port)
      configuration.nickServPassword = "also-not-sent"
      let error = try await Self.runUntilStopped(configuration)
      let stop = try #require(error as? IRCTransportError, "\(String(describing: error))")
      #expect(stop.description == "SASL login for account botaccount was refused: check transports[1].sasl.password")
      #expect(server.connectionCount == 1, "no retry with credentials that were refused")
      let lines = server.lines(of: 0)
      #expect(lines.contains("AUTHENTICATE PLAIN"))
      #expect(
        !lines.contains { $0.hasPrefix("CAP END") || $0.contains("NickServ") || $0.hasPrefix("JOIN") }, "\(lines)")
      #expect(!lines.joined().contains("also-not-sent"))
    }
  }

  @Test("a network without SASL (no sasl capability, or no CAP at all) stops the transport too")
  func unavailableAtStart() async throws {
    for caps in ["multi-prefix server-time", "sasl=EXTERNAL", nil] as [String?] {
      try await IRCScriptedServer.with(IRCScriptedServer.registering(nick: "awfulbot", caps: caps)) { server in
        let error = try await Self.runUntilStopped(Self.configuration(port: server.port))
        let stop = try #require(error as? IRCTransportError, "\(caps ?? "no CAP"): \(String(describing: error))")
        #expect(
          stop.description
            == "SASL login for account botaccount is not possible: 127.0.0.1 offers no SASL PLAIN; check "
            + "transports[1].sasl (remove it for a network without SASL)")
        #expect(!server.lines(of: 0).contains { $0.hasPrefix("JOIN") || $0.contains("NickServ") })
      }
    }
  }

  @Test("once the bot has registered, a SASL refusal on a reconnect is retried, not fatal")
  func refusedOnReconnect() async throws {
    let script = IRCScriptedServer.registering(
      nick: "awfulbot", caps: "sasl=PLAIN", saslAccepts: { $0 != 1 }, closeAfterJoin: { $0 == 0 })
    try await IRCScriptedServer.with(script) { server in
      let bot = try RunningIRCTransport(Self.configuration(port: server.port))
      // Two reconnects, 2 s and 4 s apart plus jitter: 15 s was too short on a machine at load 13.
      try await waitUntil(timeout: .seconds(45)) {
        if case .registered = await bot.transport.connectionState() { return server.connectionCount >= 3 }
        return false
      }
      #expect(await bot.transport.registrationCount() == 2, "registered, refused once, registered again")
      #expect(server.lines(of: 1).contains("AUTHENTICATE PLAIN"))
      #expect(!server.lines(of: 1).contains { $0.hasPrefix("CAP END") || $0.hasPrefix("JOIN") })
      await bot.stop()
      #expect(await bot.result.isSuccess)
    }
  }

  @Test("NickServ IDENTIFY after registering only with a configured, non-empty nickServPassword")
  func nickServOnlyWhenConfigured() async throws {
    for password in ["s3cret", "", nil] as [String?] {
      let script = IRCScriptedServer.registering(
        nick: "awfulbot", caps: "multi-prefix",
        whoisNickServ: .service(server: "services.scripted", text: "is a Network Service"))
      try await IRCScriptedServer.with(script) { server in
        var configuration = Self.configuration(port: server.port, sasl: false)
        configuration.nickServPassword = password
        let bot = try RunningIRCTransport(configuration)
        try await waitUntil(timeout: .seconds(10)) {
          server.lines(of: 0).contains { $0.hasPrefix("JOIN") }
            && (password != "s3cret" || server.lines(of: 0).contains { $0.hasPrefix("PRIVMSG") })
        }
        await bot.stop()
        let identify = server.lines(of: 0).filter { $0.contains("NickServ") }
        if password == "s3cret" {
          #expect(identify == ["WHOIS NickServ", "PRIVMSG NickServ@services.scripted :IDENTIFY awfulbot s3cret"])
        } else {
          #expect(identify.isEmpty, "\(password.map { "“\($0)”" } ?? "nil"): \(identify)")
        }
      }
    }
  }
}

extension Result {
  var isSuccess: Bool {
    if case .success = self { return true }
    return false
  }
}
