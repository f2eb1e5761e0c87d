import AwfulBotIRCTestKit
import AwfulBotTestKit
import Foundation
import Logging
import Testing

@testable import IRCTransport

/// Against the real network: roles from real op/deop/voice/half-op, addressing by the nick the bot got, CTCP
/// answers and their limit, and a wrong SASL password refused by the real Atheme.
extension IRCLiveTests {
  @Suite("behaviour", .serialized)
  struct Behaviour {
    /// The bot's answer in `channel` to `command` said by `client`, as `observer` sees it.
    static func answer(
      _ command: String, by client: IRCTestClient, in channel: String, bot nick: String, observer: IRCTestClient
    ) async throws -> String {
      let mark = await observer.mark()
      try await client.send("PRIVMSG \(channel) :\(command)")
      return try await observer.waitFor("the answer to \(command)", from: mark) {
        $0.nick == nick && $0.command == "PRIVMSG" && $0.parameters.first?.lowercased() == channel.lowercased()
      }.text
    }

    /// `MODE` by `op`, returned once the server has applied it (the echo arrived).
    static func mode(_ change: String, _ nick: String, in channel: String, by op: IRCTestClient) async throws {
      let mark = await op.mark()
      try await op.send("MODE \(channel) \(change) \(nick)")
      try await op.waitFor("MODE \(change) \(nick)", from: mark) { $0.command == "MODE" && $0.text.contains(nick) }
    }

    @Test("roles follow channel status: op, +a and half-op admin, voice member, plain viewer; MODE counts at once")
    func rolesFromChannelStatus() async throws {
      let environment = try IRCTestEnvironment.required
      let channel = IRCTestEnvironment.unique("#roles-")
      let nick = IRCTestEnvironment.unique("bot")
      // The first to join a new channel is its operator; the voiced user is voiced before the bot joins (NAMES).
      let op = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("op"), environment: environment)
      try await op.join(channel)
      let voiced = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("v"), environment: environment)
      try await voiced.join(channel)
      let plain = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("p"), environment: environment)
      try await plain.join(channel)
      try await Self.mode("+v", voiced.nick, in: channel, by: op)

      let transport = try IRCTransport(
        configuration: botConfiguration(environment, nick: nick, channels: [channel]), logger: Logger.quiet())
      let forum = try await ForumSide.start(transport: transport)
      let bot = RunningIRCTransport(transport, with: [forum.commandService(for: transport, nicks: [nick])])
      try await op.waitForJoin(of: nick)
      try await waitUntil(timeout: .seconds(5)) {
        await transport.client.channelModes(channel, nick: op.nick).contains("o")
      }
      func ask(_ client: IRCTestClient, _ command: String) async throws -> String {
        try await Self.answer(command, by: client, in: channel, bot: nick, observer: op)
      }
      let admin = "!unfurl off"
      let member = "!mode each"

      #expect(try await ask(plain, admin).contains("needs the admin role; you are a viewer"))
      #expect(try await ask(plain, member).contains("needs the member role; you are a viewer"))
      #expect(try await ask(voiced, admin).contains("needs the admin role; you are a member"))
      let voicedMember = try await ask(voiced, member)
      #expect(!voicedMember.contains("needs the"), "voiced in NAMES: a member; \(voicedMember)")
      let opAdmin = try await ask(op, admin)
      #expect(!opAdmin.contains("needs the"), "an operator in NAMES is an admin: \(opAdmin)")

      try await Self.mode("+o", plain.nick, in: channel, by: op)
      let opped = try await ask(plain, admin)
      #expect(!opped.contains("needs the"), "opped by MODE: an admin at once; \(opped)")
      try await Self.mode("-o", plain.nick, in: channel, by: op)
      #expect(try await ask(plain, admin).contains("you are a viewer"), "deopped: a viewer again")

      try await Self.mode("+h", plain.nick, in: channel, by: op)
      let halfOp = try await ask(plain, admin)
      #expect(!halfOp.contains("needs the"), "a half-op is an admin: \(halfOp)")
      try await Self.mode("-h", plain.nick, in: channel, by: op)
      try await Self.mode("+a", plain.nick, in: channel, by: op)
      let protected = try await ask(plain, admin)
      #expect(!protected.contains("needs the"), "+a (above op) is an admin: \(protected)")
      try await Self.mode("-a", plain.nick, in: channel, by: op)
      try await Self.mode("+v", plain.nick, in: channel, by: op)
      #expect(try await ask(plain, admin).contains("you are a member"), "voiced by MODE: a member")
      try await Self.mode("-v", voiced.nick, in: channel, by: op)
      #expect(try await ask(voiced, member).contains("you are a viewer"), "devoiced: a viewer")

      try await Self.mode("-o", op.nick, in: channel, by: op)
      #expect(try await ask(op, admin).contains("you are a viewer"), "an operator who deopped themselves")

      await bot.stop()
      await forum.stop()
      for client in [op, voiced, plain] { await client.quit() }
    }

    @Test("addressed by the nick it got after a clash (`nick_: `, `nick_, `, `nick_ `), by the prefix, in a query")
    func addressedByCurrentNick() async throws {
      let environment = try IRCTestEnvironment.required
      let channel = IRCTestEnvironment.unique("#addr-")
      let nick = IRCTestEnvironment.unique("bot")
      let holder = try await IRCTestClient.connect(nick: nick, environment: environment)
      let tester = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("t"), environment: environment)
      try await tester.join(channel)

      var configuration = botConfiguration(environment, nick: nick, channels: [channel], tls: false)
      configuration.alternateNicks = [nick + "_"]
      configuration.sasl = nil
      configuration.nickReclaimSeconds = 600
      let transport = try IRCTransport(configuration: configuration, logger: Logger.quiet())
      let forum = try await ForumSide.start(transport: transport)
      // No bot names for the parser: only the transport's addressing and the prefix make a line a command.
      let bot = RunningIRCTransport(transport, with: [forum.commandService(for: transport, nicks: [])])
      let current = nick + "_"
      try await tester.waitForJoin(of: current)

      for (line, command) in [
        ("\(current): help status", "!status"), ("\(current), help why", "!why"), ("\(current) help watch", "!watch"),
        ("!help latest", "!latest"), ("\(current.uppercased()): help forums", "!forums"),
      ] {
        let mark = await tester.mark()
        try await tester.send("PRIVMSG \(channel) :\(line)")
        // Matched by the command it names: the previous answer's later lines may still arrive after the mark.
        _ = try await tester.waitFor("the answer to “\(line)” (naming \(command))", from: mark) {
          $0.nick == current && $0.command == "PRIVMSG" && $0.text.contains(command)
        }
      }

      // The configured nick belongs to someone else now: addressing it is not addressing the bot.
      let mark = await tester.mark()
      try await tester.send("PRIVMSG \(channel) :\(nick): help bookmarks")
      try await tester.send("PRIVMSG \(channel) :\(current): help subscriptions")
      try await tester.waitFor("the answer about subscriptions", from: mark) {
        $0.nick == current && $0.text.contains("!subscriptions")
      }
      #expect(await !tester.lines[mark...].contains { $0.nick == current && $0.text.contains("!bookmarks") })

      let queryMark = await tester.mark()
      try await tester.send("PRIVMSG \(current) :help undo")
      let testerNick = tester.nick
      let query = try await tester.waitFor("an answer in the query", from: queryMark) {
        $0.nick == current && $0.command == "PRIVMSG" && $0.parameters.first == testerNick
      }
      #expect(query.text.contains("!undo"))

      await bot.stop()
      await forum.stop()
      await holder.quit()
      await tester.quit()
    }

    @Test("CTCP VERSION, PING, TIME and CLIENTINFO are answered by NOTICE; ACTION is not")
    func ctcpAnswers() async throws {
      let (environment, channel, nick, tester) = try await liveChannel("#ctcp-")
      var configuration = botConfiguration(environment, nick: nick, channels: [channel], tls: false)
      configuration.versionReply = "AwfulBot 9.8.7-test"
      let bot = try RunningIRCTransport(configuration)
      try await tester.waitForJoin(of: nick)

      func ctcp(_ request: String, to target: String) async throws -> String {
        let mark = await tester.mark()
        try await tester.send("PRIVMSG \(target) :\u{01}\(request)\u{01}")
        let testerNick = tester.nick
        return try await tester.waitFor("the answer to CTCP \(request)", from: mark) {
          $0.nick == nick && $0.command == "NOTICE" && $0.parameters.first == testerNick
        }.text
      }
      #expect(try await ctcp("VERSION", to: nick) == "\u{01}VERSION AwfulBot 9.8.7-test\u{01}")
      #expect(try await ctcp("PING 1732520000 42", to: nick) == "\u{01}PING 1732520000 42\u{01}")
      let time = try await ctcp("TIME", to: channel)
      #expect(time.hasPrefix("\u{01}TIME ") && time.hasSuffix(" +0000\u{01}"), "\(time)")
      #expect(try await ctcp("CLIENTINFO", to: nick) == "\u{01}CLIENTINFO CLIENTINFO PING TIME VERSION\u{01}")

      let mark = await tester.mark()
      try await tester.send("PRIVMSG \(channel) :\u{01}ACTION waves at the bot\u{01}")
      try await tester.send("PRIVMSG \(nick) :\u{01}ACTION pokes\u{01}")
      // Waited out, not synchronised: this is the bare transport, which answers nothing but CTCP, and the four CTCP
      // answers above used this host's burst, so a CTCP barrier would itself go unanswered for ten seconds.
      try await Task.sleep(for: .seconds(1))
      #expect(await !tester.lines[mark...].contains { $0.nick == nick }, "no answer to ACTION")
      await bot.stop()
      await tester.quit()
    }

    @Test("a CTCP flood gets a few answers, then silence; the bot stays connected and answers commands")
    func ctcpFlood() async throws {
      let (environment, channel, nick, tester) = try await liveChannel("#ctcpf-")
      let helper = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("h"), environment: environment)
      let configuration = botConfiguration(environment, nick: nick, channels: [channel], tls: false)
      let transport = try IRCTransport(configuration: configuration, logger: Logger.quiet())
      let forum = try await ForumSide.start(transport: transport)
      let bot = RunningIRCTransport(transport, with: [forum.commandService(for: transport, nicks: [nick])])
      try await tester.waitForJoin(of: nick)

      let mark = await tester.mark()
      let helperMark = await helper.mark()
      for number in 1...40 {
        try await (number.isMultiple(of: 2) ? tester : helper).send("PRIVMSG \(nick) :\u{01}PING \(number)\u{01}")
      }
      // Waited out, not synchronised: a request over the limit is dropped without a trace, so nothing marks the
      // moment the last of the forty has been dropped.
      try await Task.sleep(for: .seconds(2))
      let answers =
        await tester.lines[mark...].filter { $0.nick == nick && $0.command == "NOTICE" }.count
        + helper.lines[helperMark...].filter { $0.nick == nick && $0.command == "NOTICE" }.count
      #expect(answers >= 1 && answers <= 5, "\(answers) answers to 40 requests from one host")
      let help = try await Self.answer("!help status", by: tester, in: channel, bot: nick, observer: tester)
      #expect(help.contains("!status"))
      #expect(await !tester.lines[mark...].contains { $0.nick == nick && $0.command == "QUIT" })
      #expect(await transport.registrationCount() == 1, "never disconnected")

      await bot.stop()
      await forum.stop()
      await helper.quit()
      await tester.quit()
    }

    @Test("Atheme refuses a wrong SASL password: the transport stops with the sentence and never joins")
    func wrongSASLPasswordStops() async throws {
      let (environment, channel, nick, tester) = try await liveChannel("#sasl-")
      var configuration = botConfiguration(environment, nick: nick, channels: [channel])
      let wrong = "wrong-\(UUID().uuidString)"
      configuration.sasl = .init(mechanism: .plain, account: environment.account, password: wrong)
      configuration.settingsPath = "transports[2]"
      let bot = try RunningIRCTransport(configuration)
      let watchdog = Task {
        try await Task.sleep(for: .seconds(30))
        await bot.stop()
      }
      let result = await bot.result
      watchdog.cancel()
      guard case .failure(let error) = result else {
        Issue.record("the transport kept running with a refused SASL login")
        return
      }
      #expect(
        "\(error)"
          == "SASL login for account \(environment.account) was refused: check transports[2].sasl.password")
      #expect(!"\(error)".contains(wrong))
      #expect(await !tester.lines.contains { $0.nick == nick })
      #expect(await bot.transport.connectionState() == .stopped)
      await tester.quit()
    }
  }
}

extension IRCClient {
  /// The member modes recorded for `nick` in `channel`.
  func channelModes(_ channel: String, nick: String) -> Set<Character> {
    membership.channels[IRCCaseMapping.fold(channel)]?.modes(of: nick) ?? []
  }
}
