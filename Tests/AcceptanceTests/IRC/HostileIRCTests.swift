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
  @Suite("hostile users on IRC")
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
      try await forum.engine.watch(
        threadID: "3600001", room: RoomRef(transport: "irc", room: IRCCaseMapping.fold(channel)))

      let mark = await flooder.mark()
      let channelMark = await watcher.mark()
      for index in 0..<30 { try await flooder.send("PRIVMSG \(nick) :!nosuch\(index)") }
      // Posts flow to the channel meanwhile.
      _ = try await forum.server.state.addPost(thread: 3_600_001, author: 1002, body: "A post during the flood")
      await forum.engine.poll(.bookmarks)
      let relay = try await watcher.waitFor("the relay during the flood", from: channelMark, timeout: .seconds(10)) {
        $0.nick == nick && $0.text.contains("A post during the flood")
      }
      #expect(relay.command == "NOTICE")
      let answers = try await Self.lines(
        to: flooderNick, from: nick, count: limits.userCommandsPerMinute + 1, after: mark, on: flooder)
      // A little longer: anything more would show up now.
      try await Task.sleep(for: .seconds(2))
      let all = await flooder.lines[mark...].filter { $0.nick == nick && $0.command == "PRIVMSG" }.map(\.text)
      #expect(all.count == limits.userCommandsPerMinute + 1, "\(all.joined(separator: "\n"))")
      #expect(answers.last?.hasPrefix("You are giving commands faster than I take them (5 a minute)") == true)

      await bot.stop()
      await forum.stop()
      await watcher.quit()
      await flooder.quit()
    }
  }
}
