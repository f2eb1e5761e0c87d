import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import FakeForum
import Foundation
import MatrixModel
import MatrixTransport
import Testing

extension MatrixIntegrationTests.HostileChain {
  /// `!search` on Synapse against the emulator (issue 44): the answer renders as well as a relay (HTML with the
  /// thread linked to the post, the matched words in bold, no pings), every link opens its post on the forum, and
  /// the hostile cases are read as a member reads them.
  @Suite("!search on Matrix", .serialized)
  struct Search {
    static let platinumSentence =
      "The feature you are trying to access (Private Messaging, search, etc) is only accessible to Platinum members. "
      + "We're sorry, but you cannot use this feature unless you have a Platinum account."

    /// The bot's answer to the command `event`.
    static func answer(to event: String, by human: MatrixHuman, in room: String) async throws -> MatrixEvent {
      let events = try await human.waitForMessages(in: room, timeout: .seconds(30)) { events in
        events.contains { $0.replyTo == event }
      }
      return try #require(events.first { $0.replyTo == event }, "the bot answers in a reply")
    }

    /// What no answer of the bot may hold: script, `javascript:`, pills, a live `@room`, pictures, mentions.
    static func expectSafe(_ event: MatrixEvent) {
      let html = (event.formattedBody ?? "").lowercased()
      let body = event.body ?? ""
      #expect(event.msgtype == "m.notice")
      #expect(event.content["m.mentions"] == [:], "m.mentions of \(body)")
      for forbidden in ["<script", "javascript:", "href=\"https://matrix.to", "href=\"matrix:", "<img", "onerror"] {
        #expect(!html.contains(forbidden), "\(forbidden) in \(html)")
      }
      #expect(!body.contains("@room") && !html.contains("@room"), "@room in \(body)")
      if event.formattedBody != nil { #expect(event.content["format"] == "org.matrix.custom.html") }
    }

    /// The `href`s of the answer's HTML, entities decoded.
    static func links(_ html: String) -> [String] {
      html.components(separatedBy: "href=\"").dropFirst().compactMap { $0.split(separator: "\"").first }.map {
        $0.replacingOccurrences(of: "&amp;", with: "&")
      }
    }

    @Test("results with links that open the posts, more, nothing found, an account without Platinum")
    func transcript() async throws {
      try await MatrixTestWorld.with { world in
        let owner = try await MatrixHuman.register("owner")
        let bot = try MatrixBotProcess(world: world)
        let state = world.forumState
        await state.setSearchSettings(floodSeconds: nil, perPage: 6)
        var postIDs: [Int] = []
        for index in 1...7 {
          postIDs.append(
            try await state.addPost(thread: 3_600_003, author: 1002, body: "zebra sighting number \(index)"))
        }
        try await bot.run { bot in
          let room = try await bot.joinedRoom(owner: owner)
          await state.clearRequests()

          let command = try await owner.say("!search zebra sighting", in: room)
          let first = try await Self.answer(to: command, by: owner, in: room)
          Self.expectSafe(first)
          let body = first.body ?? ""
          let html = first.formattedBody ?? ""
          #expect(body.hasPrefix("Results 1–5 of 7 for “zebra sighting” in all forums:"), "\(body)")
          #expect(body.hasSuffix("Say !search more for the next results."), "\(body)")
          #expect(html.contains("<li>"), "a list: \(html)")
          #expect(html.contains("<b>zebra</b> <b>sighting</b> number 7"), "the matched words in bold: \(html)")
          #expect(html.contains(">Post your desk 📷</a>"), "\(html)")
          let hrefs = Self.links(html)
          #expect(hrefs.count == 5, "\(hrefs)")
          try await ForumLinkFollower.with(world.forumURL, username: "Pickled Tink", password: "pickles") { follower in
            for (href, postID) in zip(hrefs, postIDs.reversed()) {
              let landing = try await follower.follow(href)
              #expect(landing.shows(postID: String(postID)), "\(href) opened \(landing.url)")
            }
          }
          let searches = await state.requests().filter { $0.path == "/query.php" }.map(\.method)
          #expect(searches == ["POST", "GET"], "a search: the forum's two requests")

          // More: the sixth from the forum's first page of six (no request), then the seventh from its second page.
          await state.clearRequests()
          let moreCommand = try await owner.say("!search more", in: room)
          let more = try await Self.answer(to: moreCommand, by: owner, in: room)
          Self.expectSafe(more)
          #expect(more.body?.hasPrefix("Result 6 of 7 for “zebra sighting”:") == true, "\(more.body ?? "")")
          #expect(more.body?.hasSuffix("Say !search more for the next results.") == true)
          #expect(await state.requests().filter { $0.path == "/query.php" }.isEmpty)
          let lastCommand = try await owner.say("!search more", in: room)
          let last = try await Self.answer(to: lastCommand, by: owner, in: room)
          #expect(last.body?.hasPrefix("Result 7 of 7 for “zebra sighting”:") == true, "\(last.body ?? "")")
          #expect(last.body?.hasSuffix("That is all of them.") == true)
          #expect(await state.requests().filter { $0.path == "/query.php" }.map(\.method) == ["GET"])

          let noneCommand = try await owner.say("!search qwertyuiop", in: room)
          let none = try await Self.answer(to: noneCommand, by: owner, in: room)
          #expect(none.body == "The forum found nothing for “qwertyuiop” in all forums.")

          try await state.setPlatinum(user: 1001, false)
          let platCommand = try await owner.say("!search zebra", in: room)
          let refused = try await Self.answer(to: platCommand, by: owner, in: room)
          #expect(
            refused.body
              == "The bot's forum account is not a Platinum account, so the forum will not let it search; the "
              + "forum says: “\(Self.platinumSentence)”")
        }
      }
    }

    @Test("hostile: BBCode and @room in the search, markup, @room and a mention in a snippet")
    func hostile() async throws {
      try await MatrixTestWorld.with { world in
        let owner = try await MatrixHuman.register("owner")
        let bot = try MatrixBotProcess(world: world)
        let state = world.forumState
        _ = try await state.addPost(
          thread: 3_600_003, author: 1002,
          body: "okapi @room @owner:localhost <script>alert(1)</script> <b>bold</b> [url=javascript:alert(1)]x[/url]")
        try await bot.run { bot in
          let room = try await bot.joinedRoom(owner: owner)
          await state.clearRequests()

          let words = try await owner.say("!search [url=http://evil.example/]@room[/url] <b>okapi</b>", in: room)
          let nothing = try await Self.answer(to: words, by: owner, in: room)
          Self.expectSafe(nothing)
          let sent = await state.requests().first { $0.method == "POST" && $0.path == "/query.php" }
          #expect(sent?.formValue("q") == "[url=http://evil.example/]@room[/url] <b>okapi</b>")
          #expect(
            nothing.body == "The forum found nothing for “[url=http://evil.example/]@\u{2060}room[/url] <b>okapi</b>” "
              + "in all forums.", "\(nothing.body ?? "")")

          let command = try await owner.say("!search okapi", in: room)
          let found = try await Self.answer(to: command, by: owner, in: room)
          Self.expectSafe(found)
          let html = found.formattedBody ?? ""
          // The post's text is read as text: its tags escaped, never markup; no link but the post's.
          #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &lt;b&gt;bold&lt;/b&gt; x"), "\(html)")
          #expect(Self.links(html).count == 1)
          #expect(found.body?.contains("@\u{2060}owner:localhost") == true, "\(found.body ?? "")")
        }
      }
    }
  }
}
