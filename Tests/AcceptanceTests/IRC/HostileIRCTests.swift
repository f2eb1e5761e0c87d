import AwfulBotIRCTestKit
import AwfulBotTestKit
import BotCore
import BotStore
import ChatBridge
import FakeForum
import Foundation
import Logging
import Testing

@testable import IRCTransport

/// People the operator never named, on InspIRCd: a channel operator who writes to the bot in a private message
/// (channel status counts only in the channel, and a query is no room the config names), and a user flooding the bot
/// with commands from a private message while posts flow to the channel. Each case is the transcript they read and
/// the emulator's request log showing nothing reached the forum.
extension IRCLiveTests {
  @Suite("hostile users on IRC", .serialized)
  struct HostileUsers {
    /// The forum requests that change something or read the inbox.
    static func actingRequests(_ forum: ForumSide) async -> [LoggedRequest] {
      await forum.server.state.requests().filter { $0.method == "POST" || $0.path.contains("private.php") }
    }

    /// The lines `nick` sent to `target` from `mark` on, once there are `count`.
    static func lines(
      to target: String, from nick: String, count: Int, after mark: Int, on client: IRCTestClient
    ) async throws -> [String] {
      try await client.waitForCount(count, "\(count) lines from \(nick)", from: mark) {
        $0.nick == nick && $0.command == "PRIVMSG" && $0.parameters.first?.lowercased() == target.lowercased()
      }.map(\.text)
    }

    @Test("a channel operator in a private message: no post, no bookmark, no private messages")
    func operatorInAQuery() async throws {
      let (environment, channel, nick, op) = try await liveChannel("#hostile-")
      let transport = try IRCTransport(
        configuration: botConfiguration(environment, nick: nick, channels: [channel]), logger: Logger.quiet())
      let forum = try await ForumSide.start(transport: transport)
      let bot = RunningIRCTransport(transport, with: [forum.commandService(for: transport, nicks: [nick])])
      try await op.waitForJoin(of: nick)
      try await waitUntil(timeout: .seconds(5)) {
        await transport.client.channelModes(channel, nick: op.nick).contains("o")
      }
      await forum.server.state.clearRequests()

      // In the channel, where the config names it, the operator's status counts: a change to the room works.
      var mark = await op.mark()
      try await op.send("PRIVMSG \(channel) :!mode each")
      let inChannel = try await Self.lines(to: channel, from: nick, count: 1, after: mark, on: op)
      #expect(inChannel == ["Mode set: each post."] || inChannel.first?.hasPrefix("Mode set") == true, "\(inChannel)")

      // In a query the operator is nobody the operator of the bot named.
      let opNick = op.nick
      let commands = ["!bookmark 3600005", "!reply 3600001 hello from a query", "!confirm", "!pms"]
      mark = await op.mark()
      for command in commands { try await op.send("PRIVMSG \(nick) :\(command)") }
      let answers = try await Self.lines(to: opNick, from: nick, count: commands.count, after: mark, on: op)
      let refusal =
        "acts on the bot's forum account, so it needs the %@ role from the bot's operator (roles in its config, or "
        + "room power in a room its config names); you are a viewer."
      #expect(
        answers == [
          "“bookmark” " + refusal.replacingOccurrences(of: "%@", with: "member"),
          "“reply” " + refusal.replacingOccurrences(of: "%@", with: "admin"),
          "Nothing to confirm: start with !reply <thread> <text>.",
          "“pms” " + refusal.replacingOccurrences(of: "%@", with: "admin"),
        ], "\(answers.joined(separator: "\n"))")
      #expect(await Self.actingRequests(forum).isEmpty, "nothing reached the forum")
      #expect(await forum.server.state.bookmarks(user: 1001)[3_600_005] == nil)

      await bot.stop()
      await forum.stop()
      await op.quit()
    }

    /// The network's channels here are registered with no services (anyone who makes one is its operator), as many
    /// small channels are. Someone without status in the bot's channel reads and browses; what changes the room or
    /// acts as the account is refused with what they would need, and nothing reaches the forum.
    @Test("a user without status in the channel: reading works, room and account commands are refused")
    func nonOperatorInTheChannel() async throws {
      let (environment, channel, nick, op) = try await liveChannel("#plain-")
      let transport = try IRCTransport(
        configuration: botConfiguration(environment, nick: nick, channels: [channel]), logger: Logger.quiet())
      let forum = try await ForumSide.start(transport: transport)
      let bot = RunningIRCTransport(transport, with: [forum.commandService(for: transport, nicks: [nick])])
      try await op.waitForJoin(of: nick)
      let plain = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("p"), environment: environment)
      try await plain.join(channel)
      await forum.server.state.clearRequests()

      let commands = [
        "!subscriptions", "!subscribe forum 273", "!pause", "!bookmark 3600005", "!reply 3600001 hi", "!pms",
      ]
      let mark = await plain.mark()
      for command in commands { try await plain.send("PRIVMSG \(channel) :\(command)") }
      let answers = try await Self.lines(to: channel, from: nick, count: commands.count, after: mark, on: plain)
      #expect(
        answers == [
          "This room follows nothing yet; try !subscribe bookmarks or !watch <thread>.",
          "“subscribe” needs the member role; you are a viewer.",
          "“pause” needs the member role; you are a viewer.",
          "“bookmark” needs the member role; you are a viewer.",
          "“reply” needs the admin role; you are a viewer.",
          "“pms” needs the admin role; you are a viewer.",
        ], "\(answers.joined(separator: "\n"))")
      #expect(await Self.actingRequests(forum).isEmpty, "nothing reached the forum")
      #expect(await forum.server.state.bookmarks(user: 1001)[3_600_005] == nil)

      await bot.stop()
      await forum.stop()
      await op.quit()
      await plain.quit()
    }

    @Test("a command flood from a private message: a minute's budget answered, one refusal, relays go on")
    func floodFromAQuery() async throws {
      let (environment, channel, nick, watcher) = try await liveChannel("#flood-")
      let transport = try IRCTransport(
        configuration: botConfiguration(environment, nick: nick, channels: [channel]), logger: Logger.quiet())
      let forum = try await ForumSide.start(transport: transport)
      let limits = CommandBudget.Limits(userCommandsPerMinute: 5, roomCommandsPerMinute: 10, forumRequestsPerMinute: 5)
      let bot = RunningIRCTransport(
        transport,
        with: [
          forum.commandService(for: transport, nicks: [nick], budget: limits), forum.dispatcher(for: transport),
        ])
      try await watcher.waitForJoin(of: nick)
      let flooder = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("f"), environment: environment)
      let flooderNick = flooder.nick
      try await forum.engine.subscriptions.watch(
        threadID: "3600001", room: RoomRef(transport: "irc", room: IRCCaseMapping.fold(channel)))

      let mark = await flooder.mark()
      let channelMark = await watcher.mark()
      for index in 0..<30 { try await flooder.send("PRIVMSG \(nick) :!nosuch\(index)") }
      // Posts flow to the channel meanwhile.
      _ = try await forum.server.state.addPost(thread: 3_600_001, author: 1002, body: "A post during the flood")
      await forum.engine.polling.poll(.bookmarks)
      let relay = try await watcher.waitFor("the relay during the flood", from: channelMark, timeout: .seconds(10)) {
        $0.nick == nick && $0.text.contains("A post during the flood")
      }
      #expect(relay.command == "NOTICE")
      let answers = try await Self.lines(
        to: flooderNick, from: nick, count: limits.userCommandsPerMinute + 1, after: mark, on: flooder)
      // Everything the bot queued is sent and here: anything more would show up now.
      try await forum.engine.waitUntilNothingPending()
      try await flooder.roundTrip()
      let all = await flooder.lines[mark...].filter { $0.nick == nick && $0.command == "PRIVMSG" }.map(\.text)
      #expect(all.count == limits.userCommandsPerMinute + 1, "\(all.joined(separator: "\n"))")
      #expect(answers.last?.hasPrefix("You are giving commands faster than I take them (5 a minute)") == true)

      await bot.stop()
      await forum.stop()
      await watcher.quit()
      await flooder.quit()
    }

    /// Alice (logged in to services) and Bob (no account) each follow the forum account's private messages in a
    /// query: Alice's room is her account, Bob's his nick, as the operator's config names them. Both leave, and
    /// Mallory takes each nick. The next private message reaches neither Mallory; Bob's room is paused (Mallory is no
    /// one who may resume it), and Alice's waits for her account and reaches her under a new nick when she is back.
    @Test("a nick taken over: what followed the account or the nick does not reach whoever holds it next")
    func nickTakeover() async throws {
      let (environment, channel, nick, watcher) = try await liveChannel("#takeover-")
      let transport = try IRCTransport(
        configuration: botConfiguration(environment, nick: nick, channels: [channel]), logger: Logger.quiet())
      let forum = try await ForumSide.start(transport: transport)
      let (aliceNick, bobNick) = (IRCTestEnvironment.unique("al"), IRCTestEnvironment.unique("bo"))
      let aliceLogin = (environment.testerAccount, environment.testerPassword)
      forum.engine.privateMessageRooms.add(
        RoomRef(transport: "irc", room: "account:" + IRCCaseMapping.fold(environment.testerAccount)))
      forum.engine.privateMessageRooms.add(RoomRef(transport: "irc", room: bobNick))
      let bot = RunningIRCTransport(
        transport, with: [forum.commandService(for: transport, nicks: [nick]), forum.dispatcher(for: transport)])
      try await watcher.waitForJoin(of: nick)
      await forum.engine.polling.poll(.privateMessages)  // the first read only records the inbox

      let alice = try await IRCTestClient.connect(nick: aliceNick, environment: environment, sasl: aliceLogin)
      let bob = try await IRCTestClient.connect(nick: bobNick, environment: environment)
      for client in [alice, bob] {
        let mark = await client.mark()
        try await client.send("PRIVMSG \(nick) :!help pms")
        _ = try await client.waitFor("the answer", from: mark) { $0.nick == nick }
      }
      _ = try await forum.server.state.sendPrivateMessage(from: 1002, to: 1001, title: "first secret", body: "one")
      await forum.engine.polling.poll(.privateMessages)
      for client in [alice, bob] {
        _ = try await client.waitFor("the first alert", timeout: .seconds(15)) {
          $0.nick == nick && $0.text.contains("first secret")
        }
      }

      await alice.quit()
      await bob.quit()
      try await waitUntil("the bot saw both nicks go", timeout: .seconds(10)) {
        let partners = await transport.client.partners
        return !partners.online.contains(IRCCaseMapping.fold(aliceNick)) && partners.nickRooms.isEmpty
      }
      let malloryAsAlice = try await IRCTestClient.connect(nick: aliceNick, environment: environment)
      let malloryAsBob = try await IRCTestClient.connect(nick: bobNick, environment: environment)
      _ = try await forum.server.state.sendPrivateMessage(from: 1002, to: 1001, title: "second secret", body: "two")
      await forum.engine.polling.poll(.privateMessages)
      // What Mallory reads, as each: refusals for what they try, and no alert.
      let resume = try await HostileUsers.ask("!resume", of: nick, by: malloryAsBob)
      #expect(resume == "“resume” needs the member role; you are a viewer.", "\(resume)")
      let pms = try await HostileUsers.ask("!pms", of: nick, by: malloryAsAlice)
      #expect(pms.contains("acts on the bot's forum account"), "\(pms)")
      // Waited out, not synchronised: the alert meant for the account is kept pending until the account itself is
      // back, so the outbox never empties here and no line marks the moment it was not sent to Mallory.
      try await Task.sleep(for: .seconds(3))
      for mallory in [malloryAsAlice, malloryAsBob] {
        let seen = await mallory.lines.filter { $0.nick == nick }.map(\.text)
        #expect(!seen.contains { $0.contains("secret") }, "\(seen)")
      }
      let accountRoom = "account:" + IRCCaseMapping.fold(environment.testerAccount)
      let waiting = try await forum.engine.database.read { try $0.outboxRows(transport: "irc", room: accountRoom) }
        .filter { $0.state == .pending }
      #expect(waiting.count == 1 && waiting.first?.attempts == 0, "the alert waits for her account, attempts unspent")

      // Alice is back under another nick, logged in: the alert she missed comes once she is seen.
      let aliceAgain = try await IRCTestClient.connect(
        nick: IRCTestEnvironment.unique("al"), environment: environment, sasl: aliceLogin)
      try await aliceAgain.send("PRIVMSG \(nick) :!help")
      _ = try await aliceAgain.waitFor("the alert she missed", timeout: .seconds(40)) {
        $0.nick == nick && $0.text.contains("second secret")
      }

      await bot.stop()
      await forum.stop()
      for client in [watcher, malloryAsAlice, malloryAsBob, aliceAgain] { await client.quit() }
    }

    /// Sends `text` to the bot in a query and returns its first answer.
    static func ask(_ text: String, of bot: String, by client: IRCTestClient) async throws -> String {
      let mark = await client.mark()
      try await client.send("PRIVMSG \(bot) :\(text)")
      return try await client.waitFor("the answer to \(text)", from: mark) { $0.nick == bot }.text
    }
  }
}
