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

/// A member of a channel turning the bot's commands against the forum account, on InspIRCd with the emulator: the
/// backfill flood of issue 43. `!subscribe bookmarks --backfill 20` reads a thread page per bookmarked thread; said
/// thirty times it read twenty pages each time, about 400 requests a minute against the account's one a second.
/// Now the backfill runs only with a new subscription, within the commands' share of forum requests, and the
/// emulator's request log shows what reached the forum.
extension IRCLiveTests {
  @Suite("hostile: commands against the forum's pace", .serialized)
  struct HostileForumBudget {
    /// The thread pages the emulator served.
    static func threadPages(_ forum: ForumSide) async -> [LoggedRequest] {
      await forum.server.state.requests().filter { $0.path == "/showthread.php" }
    }

    @Test("the backfill flood: one backfill within the commands' share, then nothing reaches the forum")
    func backfillFlood() async throws {
      let (environment, channel, nick, op) = try await liveChannel("#backfill-")
      let transport = try IRCTransport(
        configuration: botConfiguration(environment, nick: nick, channels: [channel]), logger: Logger.quiet())
      let forum = try await ForumSide.start(transport: transport)
      // Twenty bookmarked threads of one post each, the newest of the account: twenty posts are a page of each.
      try await forum.server.state.addGeneratedThreads(
        count: 20, forum: 273, author: 1002, postsPerThread: 1, titlePrefix: "Flood", bookmarkedBy: 1001,
        startDate: Date())
      await forum.engine.polling.poll(.bookmarks)  // the poller's own reading, outside the commands' share
      let limits = CommandBudget.Limits.standard
      let bot = RunningIRCTransport(
        transport,
        with: [
          forum.commandService(for: transport, nicks: [nick], budget: limits), forum.dispatcher(for: transport),
        ])
      try await op.waitForJoin(of: nick)
      // A voiced member: may subscribe the room, and is held to the budget (only the account's admins are not).
      let flooder = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("f"), environment: environment)
      let flooderNick = flooder.nick
      try await flooder.join(channel)
      try await op.send("MODE \(channel) +v \(flooderNick)")
      try await waitUntil(timeout: .seconds(5)) {
        await transport.client.channelModes(channel, nick: flooderNick).contains("v")
      }
      await forum.server.state.clearRequests()

      let mark = await flooder.mark()
      let floodStarted = ContinuousClock.now
      let command = "!subscribe bookmarks --backfill 20"
      for _ in 0..<30 { try await flooder.send("PRIVMSG \(channel) :\(command)") }
      // The first answer, and the pages its backfill read by then.
      let first = try await flooder.waitForCount(2, "the first answer", from: mark) {
        $0.nick == nick && $0.command == "PRIVMSG"
      }.map(\.text)
      let pagesOfTheFirst = await Self.threadPages(forum).count
      // The share refills evenly while the backfill reads, one request per 60 / forumRequestsPerMinute seconds; on a
      // loaded machine the backfill can take long enough to earn a read or two more.
      let backfillSeconds = Double((ContinuousClock.now - floodStarted).wholeMilliseconds) / 1000
      let refilledReads = Int(backfillSeconds * Double(limits.forumRequestsPerMinute) / 60) + 1
      // Everything is answered (the refusal comes after a minute's budget of commands) and every relay sent.
      _ = try await flooder.waitFor("the budget's refusal", from: mark, timeout: .seconds(30)) {
        $0.nick == nick && $0.text.hasPrefix("You are giving commands faster than I take them")
      }
      try await forum.engine.waitUntilNothingPending()
      try await flooder.roundTrip()

      let said = await flooder.lines[mark...].filter { $0.nick == nick }
      let answers = said.filter { $0.command == "PRIVMSG" }.map(\.text)
      let relays = said.filter { $0.command == "NOTICE" }.map(\.text)
      let again =
        "This room was already subscribed to all bookmarks. --backfill sends posts only with a new subscription, so "
        + "nothing was sent again."
      #expect(first.first == "Subscribed this room to all bookmarks.", "\(answers.joined(separator: "\n"))")
      #expect(first.last?.hasPrefix("Sending the latest ") == true, "\(first)")
      #expect(answers.filter { $0 == again }.count >= limits.userCommandsPerMinute - 1, "\(answers.count) answers")
      #expect(answers.filter { $0.hasPrefix("You are giving commands faster") }.count == 1, "one refusal, then silence")
      // What reached the forum: the first backfill's pages, at most the commands' share (and what it refilled
      // meanwhile), and nothing for the twenty-nine commands after it. A last page is two requests (`goto=lastpost`
      // answers with a redirect to the page), one read of the share.
      let pages = await Self.threadPages(forum)
      let reads = pages.filter { $0.query.contains(.init(name: "goto", value: "lastpost")) }
      #expect(pages.count == pagesOfTheFirst, "no page for the repeats: \(pages.count) after \(pagesOfTheFirst)")
      #expect(
        (limits.forumRequestsPerMinute...limits.forumRequestsPerMinute + refilledReads).contains(reads.count),
        "the share: \(reads.count) last pages read in \(backfillSeconds) s")
      #expect(pages.count == 2 * reads.count, "each read and its redirect, nothing more: \(pages.count)")
      #expect(await forum.server.state.requests().count == pages.count, "nothing else was asked of the forum")
      #expect(relays.count == reads.count, "one post of each page read, relayed once: \(relays.count)")
      #expect(relays.allSatisfy { $0.contains("Flood") }, "\(relays.prefix(3))")

      // The bot is alive: the channel's operator (an admin of the account here, not held back) is answered, and a
      // new post in a bookmarked thread is relayed.
      let opMark = await op.mark()
      try await op.send("PRIVMSG \(channel) :!subscriptions")
      let listed = try await op.waitFor("the list", from: opMark) { $0.nick == nick && $0.command == "PRIVMSG" }
      #expect(listed.text == "This room follows:", "\(listed.text)")
      let thread = try #require(await forum.server.state.bookmarks(user: 1001).keys.max())
      _ = try await forum.server.state.addPost(thread: thread, author: 1002, body: "After the flood")
      await forum.engine.polling.poll(.bookmarks)
      _ = try await op.waitFor("the relay after the flood", from: opMark, timeout: .seconds(10)) {
        $0.nick == nick && $0.text.contains("After the flood")
      }

      await bot.stop()
      await forum.stop()
      await op.quit()
      await flooder.quit()
    }
  }
}
