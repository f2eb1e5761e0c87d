import AwfulBotIRCTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import Logging
import Testing

@testable import IRCTransport

/// Against the real network from `scripts/with-ircd`: registration, TLS, nick handling, kicks, keepalive.
extension IRCServerRestartTests {
  @Suite("connection")
  struct Connection {
    @Test("TLS + SASL PLAIN registration, the configured channel is joined, QUIT with a message on shutdown")
    func registrationAndJoin() async throws {
      let (environment, channel, nick, tester) = try await liveChannel("#reg-")

      let bot = try RunningIRCTransport(botConfiguration(environment, nick: nick, channels: [channel]))
      try await tester.waitForJoin(of: nick)

      let mark = await tester.mark()
      try await tester.send("WHOIS \(nick)")
      let end = try await tester.waitFor("end of WHOIS", from: mark) { $0.command == "318" }
      let whois = await tester.lines[mark...].filter { $0.at <= end.at }
      #expect(
        whois.contains { $0.command == "330" && $0.parameters.dropFirst(2).first == environment.account },
        "logged in with SASL as the bot's account")
      #expect(whois.contains { $0.command == "671" }, "connected over TLS")

      await bot.stop()
      let quit = try await tester.waitFor("the bot's QUIT") { $0.command == "QUIT" && $0.nick == nick }
      #expect(quit.text.contains("test over"))
      await tester.quit()
    }

    @Test("SASL EXTERNAL with a TLS client certificate logs the bot in to its account")
    func saslExternal() async throws {
      let (environment, channel, nick, tester) = try await liveChannel("#ext-")
      var configuration = botConfiguration(environment, nick: nick, channels: [channel])
      configuration.sasl = .init(mechanism: .external)
      configuration.clientCertificateFile = environment.clientCertificate
      configuration.clientKeyFile = environment.clientKey
      let bot = try RunningIRCTransport(configuration)
      try await tester.waitForJoin(of: nick)

      let mark = await tester.mark()
      try await tester.send("WHOIS \(nick)")
      let account = try await tester.waitFor("the account in WHOIS", from: mark) {
        $0.command == "330" || $0.command == "318"
      }
      #expect(account.command == "330" && account.parameters.dropFirst(2).first == environment.account)
      await bot.stop()
      await tester.quit()
    }

    @Test("certificate verification is on: without the test CA the TLS connection never registers")
    func tlsVerification() async throws {
      let environment = try IRCTestEnvironment.required
      var configuration = botConfiguration(environment, nick: IRCTestEnvironment.unique("bot"), channels: [])
      configuration.caFile = nil
      let client = try IRCClient(configuration: configuration, logger: Logger.quiet()) { _ in }
      let registered = (try? await client.runConnection()) ?? false
      #expect(!registered)
    }

    @Test("plain TCP works when configured, and a taken nick makes the bot use an alternate, then reclaim its own")
    func nickInUseAndReclaim() async throws {
      let environment = try IRCTestEnvironment.required
      let channel = IRCTestEnvironment.unique("#nick-")
      let nick = IRCTestEnvironment.unique("bot")
      let holder = try await IRCTestClient.connect(nick: nick, environment: environment)
      try await holder.join(channel)
      let observer = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("o"), environment: environment)
      try await observer.join(channel)

      var configuration = botConfiguration(environment, nick: nick, channels: [channel], tls: false)
      configuration.alternateNicks = [nick + "_"]
      configuration.sasl = nil
      let bot = try RunningIRCTransport(configuration)
      try await observer.waitFor("the bot joins as the alternate", timeout: .seconds(15)) {
        $0.command == "JOIN" && $0.nick == nick + "_"
      }

      let mark = await observer.mark()
      await holder.quit()
      let change = try await observer.waitFor("the bot takes its nick back", from: mark) {
        $0.command == "NICK" && $0.nick == nick + "_"
      }
      #expect(change.parameters.first == nick)
      await bot.stop()
      await observer.quit()
    }

    @Test("kicked: no rejoin unless configured; an invite to a configured channel is followed")
    func kickAndInvite() async throws {
      let environment = try IRCTestEnvironment.required
      let channel = IRCTestEnvironment.unique("#kick-")
      let op = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("op"), environment: environment)
      try await op.join(channel)

      let stays = IRCTestEnvironment.unique("bot")
      let rejoins = IRCTestEnvironment.unique("bot")
      let botStays = try RunningIRCTransport(
        botConfiguration(environment, nick: stays, channels: [channel], tls: false))
      var rejoinConfiguration = botConfiguration(environment, nick: rejoins, channels: [channel], tls: false)
      rejoinConfiguration.rejoinOnKick = true
      let botRejoins = try RunningIRCTransport(rejoinConfiguration)
      for nick in [stays, rejoins] {
        try await op.waitFor("\(nick) joins", timeout: .seconds(15)) { $0.command == "JOIN" && $0.nick == nick }
      }

      let mark = await op.mark()
      try await op.send("KICK \(channel) \(stays) :out")
      try await op.send("KICK \(channel) \(rejoins) :out")
      try await op.waitFor("the configured bot rejoins", from: mark) { $0.command == "JOIN" && $0.nick == rejoins }
      // Sending to a channel the bot was kicked from fails for good instead of sneaking back in.
      await #expect(throws: ChatSendError.self) {
        _ = try await botStays.transport.send(
          OutgoingMessage(.answer(CommandAnswer("let me in"))), to: channel, idempotencyKey: "kicked-1")
      }
      #expect(await !op.lines[mark...].contains { $0.command == "JOIN" && $0.nick == stays })

      try await op.send("INVITE \(stays) \(channel)")
      try await op.waitFor("the invited bot joins", from: mark) { $0.command == "JOIN" && $0.nick == stays }
      await botStays.stop()
      await botRejoins.stop()
      await op.quit()
    }

    @Test("a server that stops answering is detected by the keepalive PING; the connection ends by itself")
    func keepaliveDetectsDeadLink() async throws {
      let environment = try IRCTestEnvironment.required
      let channel = IRCTestEnvironment.unique("#ping-")
      let nick = IRCTestEnvironment.unique("bot")
      var configuration = botConfiguration(environment, nick: nick, channels: [channel], tls: false)
      configuration.pingIntervalSeconds = 1
      configuration.pingTimeoutSeconds = 1
      configuration.registrationTimeoutSeconds = 5
      let client = try IRCClient(configuration: configuration, logger: Logger.quiet()) { _ in }
      // One connection, run by hand: it must end by itself once the server freezes.
      let connection = Task { try await client.runConnection() }
      let tester = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("t"), environment: environment)
      try await tester.join(channel)
      try await waitUntil(timeout: .seconds(15)) { await client.isJoined(channel) }
      let pid = try environment.serverPID()
      kill(pid, SIGSTOP)
      defer { kill(pid, SIGCONT) }
      let started = ContinuousClock.now
      let registered = try await connection.value
      kill(pid, SIGCONT)
      #expect(registered)
      #expect(ContinuousClock.now - started < .seconds(10), "the dead link is noticed after ping interval + timeout")
      await tester.quit()
    }
  }
}
