import AwfulBotIRCTestKit
import AwfulBotTestKit
import BotCore
import BotStore
import ChatBridge
import Foundation
import Logging
import ServiceLifecycle
import Testing

@testable import IRCTransport

/// Against the real network: commands, relayed posts from the emulated forum, splitting, flood control,
/// reconnecting with a queue, injection, permissions.
extension IRCServerRestartTests {
  @Suite("messaging")
  struct Messaging {
    @Test("a command in the channel, addressed by nick, and in a private message is answered where it came from")
    func commandsAnswered() async throws {
      let (environment, channel, nick, tester) = try await liveChannel("#cmd-")
      let transport = try IRCTransport(
        configuration: botConfiguration(environment, nick: nick, channels: [channel]), logger: Logger.quiet())
      let forum = try await ForumSide.start(transport: transport)
      let bot = RunningIRCTransport(transport, with: [forum.commandService(for: transport, nicks: [nick])])
      try await tester.waitForJoin(of: nick)

      var mark = await tester.mark()
      try await tester.send("PRIVMSG \(channel) :!help")
      let help = try await tester.waitFor("an answer in the channel", from: mark) {
        $0.nick == nick && $0.command == "PRIVMSG"
      }
      #expect(help.parameters.first?.lowercased() == channel.lowercased())
      #expect(help.text.contains("commands"))

      mark = await tester.mark()
      try await tester.send("PRIVMSG \(channel) :\(nick): help status")
      let addressed = try await tester.waitFor("an answer to `nick: help status`", from: mark) {
        $0.nick == nick && $0.command == "PRIVMSG" && $0.text.contains("status")
      }
      #expect(addressed.parameters.first?.lowercased() == channel.lowercased())

      mark = await tester.mark()
      try await tester.send("PRIVMSG \(nick) :help")
      let testerNick = tester.nick
      let query = try await tester.waitFor("an answer in the query", from: mark) {
        $0.nick == nick && $0.command == "PRIVMSG" && $0.parameters.first == testerNick
      }
      #expect(query.text.contains("commands"), "a private question gets a private answer")

      await bot.stop()
      await forum.stop()
      await tester.quit()
    }

    @Test("a message of several lines cut by a stop goes on after the lines the server had echoed, at the resend")
    func resumesAfterEchoedLines() async throws {
      let (environment, channel, nick, tester) = try await liveChannel("#lines-")
      var configuration = botConfiguration(environment, nick: nick, channels: [channel])
      configuration.floodBurst = 2
      configuration.floodIntervalSeconds = 0.4
      let store = InMemoryTransportStateStore()
      let run = IRCTestEnvironment.unique("")
      let texts = (1...12).map { "line \(String(format: "%02d", $0)) of \(run)" }
      let message = OutgoingMessage(.answer(CommandAnswer(lines: texts.map { .sentence([.text($0)]) })))

      let first = try IRCTransport(configuration: configuration, stateStore: store, logger: Logger.quiet())
      let bot = RunningIRCTransport(first)
      try await tester.waitForJoin(of: nick)
      let sending = Task { try await first.send(message, to: channel, idempotencyKey: "answer-\(run)") }
      try await tester.waitFor("line 06", timeout: .seconds(20)) { $0.nick == nick && $0.text == texts[5] }
      await bot.stop()
      #expect(await (try? sending.value) == nil, "the stop came before the last line")
      let kept = try #require(try await store.value(for: IRCLineProgress.storeKey("answer-\(run)")))
      #expect(kept.contains(texts[5]))

      let second = try IRCTransport(configuration: configuration, stateStore: store, logger: Logger.quiet())
      let again = RunningIRCTransport(second)
      _ = try await second.send(message, to: channel, idempotencyKey: "answer-\(run)")
      try await tester.waitFor("line 12", timeout: .seconds(20)) { $0.nick == nick && $0.text == texts[11] }
      let said = await tester.lines.filter { $0.nick == nick && $0.command == "PRIVMSG" }.map(\.text)
      for text in texts { #expect(said.contains(text), "\(text) was said") }
      #expect(said.count <= texts.count + 1, "at most the line the stop caught is said twice: \(said)")
      #expect(try await store.value(for: IRCLineProgress.storeKey("answer-\(run)")) == nil, "forgotten once delivered")

      await again.stop()
      await tester.quit()
    }

    @Test("a new post on the emulator arrives as NOTICE lines; CR/LF in forum text never starts a command")
    func relayedPostAsNotices() async throws {
      let (environment, channel, nick, tester) = try await liveChannel("#relay-")
      let transport = try IRCTransport(
        configuration: botConfiguration(environment, nick: nick, channels: [channel]), logger: Logger.quiet())
      let forum = try await ForumSide.start(transport: transport)
      let bot = RunningIRCTransport(transport, with: [forum.dispatcher(for: transport)])
      try await tester.waitForJoin(of: nick)

      let room = RoomRef(transport: "irc", room: IRCCaseMapping.fold(channel))
      try await forum.engine.subscriptions.watch(threadID: "3600001", room: room)
      let mark = await tester.mark()
      _ = try await forum.server.state.addPost(
        thread: 3_600_001, author: 1002, body: "Fresh news from the forum\r\nQUIT :pwned\r\nPRIVMSG #x :injected")
      await forum.engine.polling.poll(.bookmarks)

      let link = try await tester.waitFor("the post link", from: mark, timeout: .seconds(15)) {
        $0.nick == nick && $0.text.contains("showthread.php")
      }
      let fromBot = await tester.lines[mark...].filter { $0.nick == nick && $0.at <= link.at }
      #expect(fromBot.allSatisfy { $0.command == "NOTICE" }, "\(fromBot)")
      #expect(fromBot.contains { $0.text.contains("Fresh news from the forum") })
      // Compact style: the post is one line, its link at the end.
      #expect(fromBot.count == 1)
      // Everything the bot sent is acknowledged and here, an injected line with it.
      try await forum.engine.waitUntilNothingPending()
      try await tester.roundTrip()
      #expect(await !tester.lines[mark...].contains { $0.nick == nick && $0.command == "QUIT" })
      #expect(await !tester.lines[mark...].contains { $0.nick == nick && $0.command == "PRIVMSG" })

      await bot.stop()
      await forum.stop()
      await tester.quit()
    }

    @Test("a 2,000-character multibyte post splits into lines of at most 512 bytes that rejoin to the text")
    func longPostSplit() async throws {
      let (environment, channel, nick, tester) = try await liveChannel("#long-")
      var configuration = botConfiguration(environment, nick: nick, channels: [channel])
      configuration.relayStyle = .full
      configuration.linesPerMessage = 30
      let transport = try IRCTransport(configuration: configuration, logger: Logger.quiet())
      let forum = try await ForumSide.start(transport: transport, excerptLength: 5000)
      let bot = RunningIRCTransport(transport, with: [forum.dispatcher(for: transport)])
      try await tester.waitForJoin(of: nick)

      let unit = "Zoë’s café — 日本語のテキストです 🎉👍🏽 naïve façade "
      var body = ""
      while body.count < 2000 { body += unit }
      body = String(body.prefix(2000)).trimmingCharacters(in: .whitespaces)
      #expect(body.utf8.count > 3500)

      let room = RoomRef(transport: "irc", room: IRCCaseMapping.fold(channel))
      try await forum.engine.subscriptions.watch(threadID: "3600001", room: room)
      let mark = await tester.mark()
      _ = try await forum.server.state.addPost(thread: 3_600_001, author: 1002, body: body)
      await forum.engine.polling.poll(.bookmarks)

      let link = try await tester.waitFor("the post link", from: mark, timeout: .seconds(20)) {
        $0.nick == nick && $0.text.contains("showthread.php")
      }
      let lines = await tester.lines[mark...].filter { $0.nick == nick && $0.command == "NOTICE" && $0.at <= link.at }
      #expect(lines.count >= 10)
      for line in lines { #expect(line.wireBytes <= 512, "\(line.wireBytes) bytes: \(line.raw)") }
      // Header first, link last, the body in between: concatenated it is the post, byte for byte.
      let middle = lines.dropFirst().dropLast().map(\.text).joined()
      #expect(middle == body)

      await bot.stop()
      await forum.stop()
      await tester.quit()
    }

    @Test("flood control: a burst, then one line per interval, measured where the lines arrive")
    func floodControlSpacing() async throws {
      let (environment, channel, nick, tester) = try await liveChannel("#flood-")
      var configuration = botConfiguration(environment, nick: nick, channels: [channel], tls: false)
      configuration.floodBurst = 3
      configuration.floodIntervalSeconds = 0.4
      configuration.linesPerMessage = 10
      let bot = try RunningIRCTransport(configuration)
      try await tester.waitForJoin(of: nick)
      // The JOIN took a token; start the measurement with a full bucket, as after a quiet spell (no waiting for the
      // refill, whose timing would then be part of what is measured).
      await bot.transport.client.bucket.reset()

      let mark = await tester.mark()
      let answer = CommandAnswer(lines: (1...8).map { .sentence([.text("flood line \($0)")]) })
      _ = try await bot.transport.send(OutgoingMessage(.answer(answer)), to: channel, idempotencyKey: "flood-1")
      let lines = try await tester.waitForCount(8, "flood lines", from: mark) {
        $0.nick == nick && $0.command == "PRIVMSG"
      }
      #expect(lines.map(\.text) == (1...8).map { "flood line \($0)" })
      let first = lines[0].at
      let offsets = lines.map { ($0.at - first) / .seconds(1) }
      #expect(offsets[2] < 0.3, "the first three lines go as a burst: \(offsets)")
      for index in 3..<8 {
        // Line i may leave once (i - 2) intervals have passed since the burst.
        #expect(offsets[index] >= Double(index - 2) * 0.4 - 0.1, "line \(index + 1) came too early: \(offsets)")
      }
      #expect(offsets[7] < 5, "and not much later either: \(offsets)")

      await bot.stop()
      await tester.quit()
    }

    @Test("the server restarted mid-run: the bot reconnects, rejoins and delivers what was queued, in order")
    func restartDeliversQueue() async throws {
      let (environment, channel, nick, first) = try await liveChannel("#restart-")
      var configuration = botConfiguration(environment, nick: nick, channels: [channel])
      // Reconnect later than the test client does, so it is in the channel again before the queue drains.
      configuration.reconnectDelaySeconds = 4
      configuration.maximumReconnectDelaySeconds = 4
      configuration.reconnectJitter = 0
      let transport = try IRCTransport(configuration: configuration, logger: Logger.quiet())
      let forum = try await ForumSide.start(transport: transport)
      let bot = RunningIRCTransport(transport, with: [forum.dispatcher(for: transport)])
      try await first.waitForJoin(of: nick)

      let room = IRCCaseMapping.fold(channel)
      func queue(_ text: String) async throws {
        let command = IncomingMessage(
          transport: "irc", room: room, senderID: "tester", senderName: "tester", text: "!x", messageID: text)
        try await forum.engine.outbox.enqueueReply(OutgoingMessage(.answer(CommandAnswer(text))), answering: command)
      }
      try await queue("before the restart")
      try await first.waitFor("the first message") { $0.nick == nick && $0.text == "before the restart" }

      let restart = Task { try await environment.restartServer(downFor: 0.5) }
      try await first.waitUntilClosed()
      for number in 1...5 { try await queue("queued \(number)") }
      try await restart.value

      let second = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("t"), environment: environment)
      try await second.join(channel)
      let received = try await second.waitForCount(5, "queued messages", timeout: .seconds(30)) {
        $0.nick == nick && $0.command == "PRIVMSG"
      }
      #expect(received.map(\.text) == (1...5).map { "queued \($0)" })
      // The row is marked once the server acknowledged the send, a moment after the line arrived here.
      let database = forum.engine.database
      func states() async -> [OutboxState] {
        (try? await database.read { tx in try tx.allOutboxRows() })?.map(\.state) ?? []
      }
      try? await waitUntil(timeout: .seconds(10)) { await states().filter { $0 == .delivered }.count == 6 }
      let final = await states()
      #expect(final == Array(repeating: .delivered, count: 6), "\(final)")

      await bot.stop()
      await forum.stop()
      await second.quit()
    }

    @Test("CR, LF and NUL in a message never start a new IRC command")
    func injectionIsDefused() async throws {
      let (environment, channel, nick, tester) = try await liveChannel("#inject-")
      let bot = try RunningIRCTransport(botConfiguration(environment, nick: nick, channels: [channel], tls: false))
      try await tester.waitForJoin(of: nick)

      let mark = await tester.mark()
      let evil = "first\r\nQUIT :pwned\rJOIN #evil\nPRIVMSG \(channel) :in\u{0}jected\u{1}"
      _ = try await bot.transport.send(
        OutgoingMessage(.legacy(text: evil, html: nil, link: nil)), to: channel, idempotencyKey: "evil-1")
      _ = try await bot.transport.send(
        OutgoingMessage(.legacy(text: "still here", html: nil, link: nil)), to: channel, idempotencyKey: "evil-2")
      try await tester.waitFor("the next message", from: mark) { $0.nick == nick && $0.text == "still here" }
      let fromBot = await tester.lines[mark...].filter { $0.nick == nick }
      #expect(fromBot.map(\.command) == Array(repeating: "NOTICE", count: 5), "\(fromBot)")
      #expect(
        fromBot.map(\.text) == ["first", "QUIT :pwned", "JOIN #evil", "PRIVMSG \(channel) :injected", "still here"])
      await bot.stop()
      await tester.quit()
    }

    @Test("permissions: a non-op, non-listed user is refused; a channel operator and a listed account are not")
    func permissions() async throws {
      let environment = try IRCTestEnvironment.required
      let channel = IRCTestEnvironment.unique("#perm-")
      let nick = IRCTestEnvironment.unique("bot")
      // The first to join a new channel is its operator.
      let op = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("op"), environment: environment)
      try await op.join(channel)
      let stranger = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("s"), environment: environment)
      try await stranger.join(channel)
      let listed = try await IRCTestClient.connect(
        nick: IRCTestEnvironment.unique("l"), environment: environment,
        sasl: (environment.testerAccount, environment.testerPassword))
      try await listed.join(channel)

      var configuration = botConfiguration(environment, nick: nick, channels: [channel])
      configuration.members = [environment.testerAccount]
      let transport = try IRCTransport(configuration: configuration, logger: Logger.quiet())
      let forum = try await ForumSide.start(transport: transport)
      let bot = RunningIRCTransport(transport, with: [forum.commandService(for: transport, nicks: [nick])])
      try await op.waitForJoin(of: nick)
      // The roles come from NAMES, which arrives right after the JOIN: wait until the bot has read it.
      let opNick = op.nick
      try await waitUntil("the bot read NAMES (\(opNick) is an operator)", timeout: .seconds(15)) {
        await transport.client.modes(of: opNick, in: channel).contains("o")
      }

      func answer(to client: IRCTestClient) async throws -> String {
        let mark = await op.mark()
        try await client.send("PRIVMSG \(channel) :!mode summary")
        return try await op.waitFor("an answer", from: mark) { $0.nick == nick && $0.command == "PRIVMSG" }.text
      }
      let refused = try await answer(to: stranger)
      #expect(refused.contains("needs the member role"), "\(refused)")
      let byOperator = try await answer(to: op)
      #expect(!byOperator.contains("needs the"), "\(byOperator)")
      let byAccount = try await answer(to: listed)
      #expect(!byAccount.contains("needs the"), "\(byAccount)")

      await bot.stop()
      await forum.stop()
      for client in [op, stranger, listed] { await client.quit() }
    }
  }
}
