import AwfulBotTestKit
import FakeForum
import Foundation
import Testing

/// What a person at the console reads: every command of the README's table with good and bad arguments, and
/// relays of posts holding every kind of content, each link followed to the page it opens. The console is the
/// local operator's room (admin role); ordinary users and operators are covered by the IRC and Matrix suites.
///
/// The expected command transcript is `Transcripts/console-commands.txt`, read as a person would before it was
/// committed; a change in what the bot says shows up as a diff there.
@Suite("Console acceptance", .serialized)
struct ConsoleAcceptanceTests {
  static let forumHost = "https://forum.example"
  static let transcripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Transcripts")

  /// The commands of the README's table, each with good and bad arguments, in the order a person might try them.
  static let commands = [
    "!help", "!help watch", "!help nonsense", "!helpp", "!bookmarks", "!bookmarks 99", "!bookmarks sideways",
    "!forums", "!forums cobol", "!threads 202", "!threads 202 9", "!latest 3600002 2", "!latest 99999999",
    "!watch 99999999", "!watch 3600005", "!subscriptions", "!unwatch 3600005", "!why 3600001", "!why 400000001",
    "!why", "!mode summary 2", "!mode each", "!mode sideways", "!quiet 22:00-07:00", "!quiet off", "!pause",
    "!resume", "!alert Zoë Québec", "!alerts", "!unalert Zoë Québec", "!unfurl off", "!unfurl on",
    "!bookmark 3600005 green", "!undo", "!undo", "!reply 3600001 hello there", "!cancel", "!confirm", "!pms", "!pm",
    "!pm nonsense", "!pm 99999999", "!pm 4700000",
    "!pms", "!pmreply 4700000 Thanks, noted.", "!cancel", "!subscribe",
    "!unsubscribe announcements", "!subscribe announcements", "!unbookmark 99999999",
  ]

  static func readable(_ text: String, _ chat: ConsoleChat) -> String {
    let base = chat.baseURL.absoluteString
    return text.replacingOccurrences(of: base.hasSuffix("/") ? String(base.dropLast()) : base, with: forumHost)
  }

  @Test("commands: answers are complete, counts match what they list, errors name the real cause")
  func commands() async throws {
    try await ConsoleChat.with { chat in
      // A private message to the bot account (the emulator's first, id 4700000), for pms, pm and pmreply.
      _ = try await chat.forum.state.sendPrivateMessage(
        from: 1002, to: FakeForumSeed.botUserID, title: "About the bot", body: "Could it [b]stop[/b] quoting me?",
        date: Date(timeIntervalSince1970: 1_750_000_000))
      var transcript: [String] = []
      for command in Self.commands {
        transcript.append("> \(command)\n" + Self.readable(try await chat.say(command), chat))
      }
      let actual = transcript.joined(separator: "\n\n") + "\n"
      let golden = Self.transcripts.appendingPathComponent("console-commands.txt")
      // AWFULBOT_UPDATE_TRANSCRIPTS=1 writes what the bot said, to be read (git diff) before it is committed.
      if ProcessInfo.processInfo.environment["AWFULBOT_UPDATE_TRANSCRIPTS"] == "1" {
        try actual.write(to: golden, atomically: true, encoding: .utf8)
      }
      let expected = try String(contentsOf: golden, encoding: .utf8)
      let actualLines = actual.components(separatedBy: "\n")
      let expectedLines = expected.components(separatedBy: "\n")
      for (number, (got, wanted)) in zip(actualLines, expectedLines).enumerated() where got != wanted {
        Issue.record("console-commands.txt line \(number + 1):\n  expected: \(wanted)\n  actual:   \(got)")
        break
      }
      #expect(actualLines.count == expectedLines.count, "\(actual)")

      // Counts stated match what is listed.
      let bookmarks = try await chat.say("!bookmarks")
      let listed = bookmarks.components(separatedBy: "\n").filter { $0.contains("• ") }.count
      #expect(listed == (await chat.forum.state.bookmarks(user: FakeForumSeed.botUserID)).count)
      let forums = try await chat.say("!forums")
      #expect(forums.hasPrefix("Forums (\(forums.components(separatedBy: "\n").filter { $0.contains("• ") }.count)):"))
    }
  }

  @Test("relays of every kind of post read right, in posting order, and every link opens the page with its post")
  func relays() async throws {
    try await ConsoleChat.with { chat in
      let state = chat.forum.state
      let longWords = (1...150).map { "word\($0)" }.joined(separator: " ")
      let bodies: [(thread: Int, author: Int, body: String)] = [
        (3_600_001, 1002, "[quote=\"Zoë Québec\"]\n\(longWords)\n[/quote]\nThis is my answer, after a long quote."),
        (3_600_002, 1003, "[quote=\"Majuju\"]\n[quote=\"angerbot\"]\ninner words\n[/quote]\nouter words\n[/quote]"),
        (
          3_600_001, 1005,
          "Look: [img]https://i.example.com/cat.png[/img], and [timg]https://i.example.com/big.jpg[/timg]!"
        ),
        (3_600_003, 1004, "[url=https://example.com/news]The news[/url] and [spoiler]the ending[/spoiler]."),
        (3_600_001, 1003, "[code]\nlet x = 1\nprint(x)\n[/code]\nThat prints 1."),
        (3_600_002, 1002, "Ünïcödé 日本語 😀 — ça va? @room \u{03}04red"),
        (3_600_001, 1002, longWords),
      ]
      let before = chat.relayCount
      var ids: [Int] = []
      for item in bodies {
        ids.append(try await state.addPost(thread: item.thread, author: item.author, body: item.body))
      }
      let relays = try await chat.relays(after: before, count: bodies.count).map { Self.readable($0, chat) }
      print(relays.joined(separator: "\n\n"))

      // Posting order across threads: relays come in the order the posts were made.
      let order = relays.compactMap { relay in ids.firstIndex { relay.contains("#post\($0)") } }
      #expect(order == Array(ids.indices))

      #expect(relays[0].contains("This is my answer, after a long quote."), "the answer survives a long quote")
      #expect(relays[0].contains("> Zoë Québec posted:"))
      #expect(relays[1].contains("(only a quote, no words of their own)"))
      #expect(!relays[1].contains("inner words"), "a quote inside a quote is left out")
      #expect(relays[2].contains("[image] https://i.example.com/cat.png, and [image] https://i.example.com/big.jpg!"))
      #expect(relays[3].contains("The news (https://example.com/news) and [spoiler]."))
      #expect(!relays[3].contains("the ending"))
      #expect(relays[4].contains("let x = 1\n") && relays[4].contains("print(x)") && !relays[4].contains("posted:"))
      #expect(relays[5].contains("Ünïcödé 日本語 😀 — ça va? @\u{2060}room"))
      #expect(!relays[5].contains("\u{03}"))
      #expect(relays[6].contains("…"), "a very long post is cut and says so")

      // Every link lands on the page that holds its post.
      try await ForumLinkFollower.with(chat.baseURL, username: "Pickled Tink", password: "pickles") { follower in
        for (relay, id) in zip(relays, ids) {
          let link = (relay.components(separatedBy: "\n").last ?? "").trimmingCharacters(in: .whitespaces)
          let landing = try await follower.follow(
            link.replacingOccurrences(of: Self.forumHost, with: chat.baseURL.absoluteString.trimmingSlash))
          #expect(landing.shows(postID: String(id)), "\(link) opened \(landing.url), without post \(id)")
        }
      }
    }
  }
}

extension String {
  fileprivate var trimmingSlash: String { hasSuffix("/") ? String(dropLast()) : self }
}
