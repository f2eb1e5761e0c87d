import AwfulBotIRCTestKit
import AwfulBotTestKit
import BotCore
import ChatBridge
import FakeForum
import Foundation
import Logging
import Testing

@testable import IRCTransport

/// `!search` on InspIRCd against the emulator (issue 44): what a member reads in the channel, line by line, and what
/// each search cost the forum (its request log).
extension IRCLiveTests {
  @Suite("!search on IRC", .serialized)
  struct Search {
    static let platinumSentence =
      "The feature you are trying to access (Private Messaging, search, etc) is only accessible to Platinum members. "
      + "We're sorry, but you cannot use this feature unless you have a Platinum account."

    /// Lines the bot sent to the channel from `mark` on, once there are `count`.
    static func lines(_ count: Int, from nick: String, to channel: String, after mark: Int, on client: IRCTestClient)
      async throws -> [String]
    {
      try await client.waitForCount(count, "\(count) lines from the bot", from: mark) {
        $0.nick == nick && $0.command == "PRIVMSG" && $0.parameters.first?.lowercased() == channel.lowercased()
      }.map(\.text)
    }

    /// The forum's requests to `query.php`, as "METHOD action".
    static func searchRequests(_ forum: ForumSide) async -> [String] {
      await forum.server.state.requests().filter { $0.path == "/query.php" }.map {
        "\($0.method) \($0.formValue("action") ?? $0.queryValue("action") ?? "")"
      }
    }

    @Test("results, more, nothing found, and an account without Platinum, as the channel reads them")
    func transcript() async throws {
      let (environment, channel, nick, member) = try await liveChannel("#search-")
      let transport = try IRCTransport(
        configuration: botConfiguration(environment, nick: nick, channels: [channel]), logger: Logger.quiet())
      let forum = try await ForumSide.start(transport: transport)
      let bot = RunningIRCTransport(transport, with: [forum.commandService(for: transport, nicks: [nick])])
      try await member.waitForJoin(of: nick)
      let state = forum.server.state
      await state.setSearchSettings(floodSeconds: nil, perPage: 2)
      for (author, text) in [(1002, "a zebra crossing at noon"), (1003, "the zebra is back"), (1002, "zebra again")] {
        _ = try await state.addPost(thread: 3_600_003, author: author, body: text)
      }
      await state.clearRequests()

      // Results: the forum's first page of two, with the count of all three.
      var mark = await member.mark()
      try await member.send("PRIVMSG \(channel) :!search zebra")
      let first = try await Self.lines(4, from: nick, to: channel, after: mark, on: member)
      #expect(first[0] == "Results 1–2 of 3 for “zebra” in all forums:", "\(first)")
      #expect(first[1].hasPrefix("• 1. Post your desk 📷 — by Pickled Tink, "), "\(first[1])")
      #expect(first[1].contains(", in General Bullshit: “zebra again” http"), "\(first[1])")
      #expect(first[1].contains(" http://127.0.0.1:") && first[1].contains("/showthread.php?goto=post&postid="))
      #expect(first[2].hasPrefix("• 2. Post your desk 📷 — by Zoë Québec, "), "\(first[2])")
      #expect(first[3] == "Say !search more for the next results.")
      #expect(await Self.searchRequests(forum) == ["POST query", "GET results"], "a search: the forum's two")

      await state.clearRequests()
      mark = await member.mark()
      try await member.send("PRIVMSG \(channel) :!search more")
      let more = try await Self.lines(3, from: nick, to: channel, after: mark, on: member)
      #expect(more[0] == "Result 3 of 3 for “zebra”:", "\(more)")
      #expect(more[1].hasPrefix("• 3. Post your desk 📷 — by Pickled Tink, "), "\(more[1])")
      #expect(more[1].contains("“a zebra crossing at noon”"))
      #expect(more[2] == "That is all of them.")
      #expect(await Self.searchRequests(forum) == ["GET results"], "more: one page")

      mark = await member.mark()
      try await member.send("PRIVMSG \(channel) :!search qwertyuiop")
      let none = try await Self.lines(1, from: nick, to: channel, after: mark, on: member)
      #expect(none == ["The forum found nothing for “qwertyuiop” in all forums."])

      try await state.setPlatinum(user: 1001, false)
      mark = await member.mark()
      try await member.send("PRIVMSG \(channel) :!search zebra")
      let refused = try await Self.lines(1, from: nick, to: channel, after: mark, on: member)
      #expect(
        refused == [
          "The bot's forum account is not a Platinum account, so the forum will not let it search; the forum "
            + "says: “\(Self.platinumSentence)”"
        ], "\(refused)")

      await bot.stop()
      await forum.stop()
      await member.quit()
    }

    @Test("hostile: a search with BBCode, @room and IRC codes, and a snippet with markup, codes and @room")
    func hostile() async throws {
      let (environment, channel, nick, member) = try await liveChannel("#searchx-")
      let transport = try IRCTransport(
        configuration: botConfiguration(environment, nick: nick, channels: [channel]), logger: Logger.quiet())
      let forum = try await ForumSide.start(transport: transport)
      let bot = RunningIRCTransport(transport, with: [forum.commandService(for: transport, nicks: [nick])])
      try await member.waitForJoin(of: nick)
      let state = forum.server.state
      _ = try await state.addPost(
        thread: 3_600_003, author: 1002,
        body:
          "okapi @room <script>alert(1)</script> [b]loud[/b] \u{02}bold\u{03}04red\u{0F} [url=http://evil.example/]x[/url]"
      )
      await state.clearRequests()

      var mark = await member.mark()
      try await member.send(
        "PRIVMSG \(channel) :!search [url=http://evil.example/]@room[/url] \u{03}04red\u{0F}\u{02}okapi")
      let words = try await Self.lines(1, from: nick, to: channel, after: mark, on: member)
      // The codes never reach the forum; the words do, as typed.
      let sent = await state.requests().first { $0.method == "POST" && $0.path == "/query.php" }
      #expect(sent?.formValue("q") == "[url=http://evil.example/]@room[/url] redokapi")
      #expect(words.count == 1 && words[0].hasPrefix("The forum found nothing for “[url=http://evil.example/]@"))
      #expect(words[0].hasSuffix("room[/url] redokapi” in all forums."), "\(words)")

      mark = await member.mark()
      try await member.send("PRIVMSG \(channel) :!search okapi")
      let found = try await Self.lines(3, from: nick, to: channel, after: mark, on: member)
      let hit = found[1]
      // The post's text as the forum's snippet has it, read as text: no IRC codes from the post, the tags as typed.
      #expect(!hit.unicodeScalars.contains { $0.value < 0x20 }, "\(hit.debugDescription)")
      #expect(hit.contains("okapi @"), "\(hit)")
      // The codes the post holds are gone before the bot reads it (the page's parser drops control characters), so
      // a colour's digits stay as the forum shows them: text, never a colour on IRC.
      #expect(hit.contains("<script>alert(1)</script> loud bold04red x"), "\(hit)")
      #expect(found[2] == "That is the only result.")

      await bot.stop()
      await forum.stop()
      await member.quit()
    }
  }
}
