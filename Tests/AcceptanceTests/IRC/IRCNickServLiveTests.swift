import AwfulBotIRCTestKit
import AwfulBotTestKit
import Foundation
import IRCTransport
import Logging
import Testing

/// The NickServ password on the real InspIRCd + Atheme (issue 43): with SASL off, the bot asks WHOIS NickServ, sees a
/// service and identifies to `NickServ@services.test.local`; with SASL on (the default), the same password logs in
/// by SASL and no IDENTIFY is sent. The case of a user holding the nick NickServ (a network without services) is in
/// `IRCNickServTests`, on a scripted server: this network always has Atheme's NickServ.
extension IRCLiveTests {
  @Suite("NickServ password", .serialized)
  struct NickServPassword {
    /// A new services account named after a fresh nick, registered by a client that then leaves.
    static func registerAccount(_ environment: IRCTestEnvironment) async throws -> (nick: String, password: String) {
      let nick = IRCTestEnvironment.unique("ns")
      let password = "pw-" + IRCTestEnvironment.unique("", length: 12)
      let registrar = try await IRCTestClient.connect(nick: nick, environment: environment)
      try await registrar.send("PRIVMSG NickServ :REGISTER \(password) \(nick)@example.com")
      try await registrar.waitFor("NickServ's confirmation") {
        $0.command == "NOTICE" && $0.nick == "NickServ" && $0.text.contains("registered")
      }
      await registrar.quit()
      return (nick, password)
    }

    static func run(
      _ environment: IRCTestEnvironment, account: (nick: String, password: String), sasl: Bool, channel: String,
      tester: IRCTestClient
    ) async throws -> LogCapture {
      var configuration = botConfiguration(environment, nick: account.nick, channels: [channel], tls: false)
      configuration.sasl = nil
      configuration.nickServPassword = account.password
      configuration.nickServSASL = sasl
      let capture = LogCapture()
      let logger = Logger(label: "irc") { _ in CapturingLogHandler(capture: capture) }
      let bot = RunningIRCTransport(try IRCTransport(configuration: configuration, logger: logger))
      try await tester.waitForJoin(of: account.nick)
      // Identifying follows the JOIN (after a WHOIS): ask WHOIS until the account shows.
      var loggedIn = false
      for _ in 0..<20 where !loggedIn {
        let mark = await tester.mark()
        try await tester.send("WHOIS \(account.nick)")
        let end = try await tester.waitFor("end of WHOIS", from: mark) { $0.command == "318" }
        loggedIn = await tester.lines[mark...].contains {
          $0.at <= end.at && $0.command == "330" && $0.parameters.dropFirst(2).first == account.nick
        }
        if !loggedIn { try await Task.sleep(for: .milliseconds(200)) }
      }
      #expect(loggedIn, "the bot is logged in to \(account.nick) (sasl: \(sasl))")
      await bot.stop()
      try await tester.waitFor("the bot's QUIT") { $0.command == "QUIT" && $0.nick == account.nick }
      return capture
    }

    @Test("SASL off: IDENTIFY goes to NickServ@services.test.local after WHOIS shows a service; SASL on: no IDENTIFY")
    func identifyToServices() async throws {
      let (environment, channel, _, tester) = try await liveChannel("#ns-")
      let account = try await Self.registerAccount(environment)

      let identified = try await Self.run(environment, account: account, sasl: false, channel: channel, tester: tester)
      let identify = identified.entries.filter { $0.message == "identifying with NickServ" }
      #expect(identify.map { $0.metadata["target"]?.description } == ["NickServ@services.test.local"])

      let bySASL = try await Self.run(environment, account: account, sasl: true, channel: channel, tester: tester)
      #expect(bySASL.messages.contains("SASL authentication succeeded"))
      #expect(!bySASL.messages.contains("identifying with NickServ"))
      await tester.quit()
    }
  }
}
