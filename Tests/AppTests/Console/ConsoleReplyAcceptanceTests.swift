import AwfulBotTestKit
import FakeForum
import Foundation
import Testing

/// Answering a relayed post from the console (issue 26), as the operator at the console reads it: every relay starts
/// with its r-number, `!re r7 <text>` shows a preview of a forum reply that quotes the post the way the forum's Quote
/// button does, `!confirm` posts it and answers with a link to the page that holds the new post. The console is the
/// operator's room (admin role, and replies are on for admins by default).
///
/// Each transcript is the exchange as the person saw it: `> what they typed`, then the bot's answer; the forum at
/// `https://forum.example` and the time of a post made during the test as `‹now›`.
@Suite("Console acceptance: answering relays", .serialized)
struct ConsoleReplyAcceptanceTests {
  static let developmentThread = "AwfulBot development thread: bridging the forums and chat"
  static let quebecThread = "Québec politics thread: «débat» 🍁"

  @Test("a relay's r-number answered: the preview, !confirm, the quoted post on the forum, the link to its page")
  func answerByReference() async throws {
    try await ConsoleChat.with { chat in
      let admin = FakeForumAdminClient(baseURL: chat.baseURL)
      // Majuju answers angerbot in the development thread (95 posts: this one is the 96th, on page 3).
      let before = chat.relayCount
      let postID = try await admin.addPost(
        thread: 3_600_001, author: "Majuju",
        body:
          "[quote=\"angerbot\"]\nStay on topic, please.\n[/quote]\nShould the bot quote the post it answers? I think "
          + "it should.")
      let relay = Self.readable(try await chat.relays(after: before, count: 1)[0], chat)
      let reference = try #require(relay.firstMatch(of: #/^(r\d+) /#).map { String($0.output.1) }, "\(relay)")
      #expect(
        relay == """
          \(reference) \(Self.developmentThread) — Majuju, ‹now›
                  > angerbot posted:
                  > Stay on topic, please.
                  Should the bot quote the post it answers? I think it should.
                  https://forum.example/showthread.php?threadid=3600001&perpage=40&pagenumber=3#post\(postID)
          """, "the relay starts with the r-number to answer it by")

      let threadPosts = await chat.forum.state.thread(3_600_001)?.postIDs.count
      var transcript = try await Self.exchange(
        ["!re r99 Hello?", "!re \(reference)", "!re \(reference) Agreed, thanks.", "!cancel"], chat)
      #expect(await chat.forum.state.thread(3_600_001)?.postIDs.count == threadPosts, "nothing posted yet")
      transcript += try await Self.exchange(["!re \(reference) Agreed, thanks.", "!confirm"], chat)
      let newID = try #require(await chat.forum.state.thread(3_600_001)?.postIDs.last)
      expectConsoleTranscript(
        transcript,
        [
          "> !re r99 Hello?",
          "No relayed post here carries “r99” (from the last 30 days); use the r-number shown before a relay.",
          "> !re \(reference)",
          "The reply text is empty. Usage: !re <reference> <text>",
          "> !re \(reference) Agreed, thanks.",
          "Reply to “\(Self.developmentThread)” as the bot account (it lands on page 3), quoting Majuju: "
            + "https://forum.example/showthread.php?threadid=3600001&perpage=40&pagenumber=3",
          "        > Should the bot quote the post it answers? I think it should.",
          "        with your text:",
          "        > Agreed, thanks.",
          "        Say !confirm within 2 minutes to post it, or !cancel.",
          "> !cancel",
          "Dropped the reply; nothing was posted.",
          "> !re \(reference) Agreed, thanks.",
          "Reply to “\(Self.developmentThread)” as the bot account (it lands on page 3), quoting Majuju: "
            + "https://forum.example/showthread.php?threadid=3600001&perpage=40&pagenumber=3",
          "        > Should the bot quote the post it answers? I think it should.",
          "        with your text:",
          "        > Agreed, thanks.",
          "        Say !confirm within 2 minutes to post it, or !cancel.",
          "> !confirm",
          "Posted: “\(Self.developmentThread)”, quoting Majuju. "
            + "https://forum.example/showthread.php?threadid=3600001&perpage=40&pagenumber=3#post\(newID)",
        ], "answering a relay by its r-number")

      // The forum holds the bot's post: the quote the Quote button makes (Majuju's words, without the quote they
      // answered), naming the poster and the post, then the text typed.
      let posted = try #require(await chat.forum.state.post(newID))
      #expect(posted.authorID == FakeForumSeed.botUserID)
      #expect(
        posted.body
          == .bbcode(
            "[quote=\"Majuju\" post=\"\(postID)\"]\nShould the bot quote the post it answers? I think it should.\n"
              + "[/quote]\n\nAgreed, thanks."))
      #expect(posted.index == 97, "the new post follows Majuju's, on page 3 as the preview said")

      // The link in "Posted" opens the page that holds the new post.
      try await Self.expectLinkLands(transcript.last ?? "", postID: newID, chat)
    }
  }

  @Test("a second reply inside the forum's flood wait: told in the forum's words, kept, posted once the wait is over")
  func floodWait() async throws {
    try await ConsoleChat.with { chat in
      let admin = FakeForumAdminClient(baseURL: chat.baseURL)
      let before = chat.relayCount
      let postID = try await admin.addPost(thread: 3_600_002, author: "Zoë Québec", body: "Qui vote dimanche ?")
      let relay = try await chat.relays(after: before, count: 1)[0]
      let reference = try #require(relay.firstMatch(of: #/^(r\d+) /#).map { String($0.output.1) }, "\(relay)")

      // A first reply goes up; then the forum wants ten minutes between two posts of an account.
      var transcript = try await Self.exchange(["!re \(reference) Moi.", "!confirm"], chat)
      #expect(transcript.last?.hasPrefix("Posted: “\(Self.quebecThread)”, quoting Zoë Québec. ") == true)
      let flood = try await admin.send("POST", "/_fake/faults", json: #"{"kind":"floodCheck","seconds":600}"#)
      #expect(flood.status == 200, "\(flood.text)")
      let postsBefore = await chat.forum.state.thread(3_600_002)?.postIDs.count

      transcript = try await Self.exchange(["!re \(reference) Moi aussi, après le travail.", "!confirm"], chat)
      // The seconds left depend on the clock: the forum says a number up to the full 600.
      let refusal = transcript.last ?? ""
      let left = refusal.firstMatch(of: /Please try again in (\d+) seconds\./).flatMap { Int($0.output.1) }
      #expect(left.map { (1...600).contains($0) } == true, "\(refusal)")
      transcript[transcript.count - 1] = refusal.replacing(/try again in \d+ seconds/, with: "try again in ‹n› seconds")
      #expect(await chat.forum.state.thread(3_600_002)?.postIDs.count == postsBefore, "nothing posted in the wait")

      // The wait is over (the fault cleared): the same !confirm posts the kept text.
      let cleared = try await admin.send("DELETE", "/_fake/faults/floodCheck")
      #expect(cleared.status == 200, "\(cleared.text)")
      transcript += try await Self.exchange(["!confirm"], chat)
      let newID = try #require(await chat.forum.state.thread(3_600_002)?.postIDs.last)
      expectConsoleTranscript(
        transcript,
        [
          "> !re \(reference) Moi aussi, après le travail.",
          "Reply to “\(Self.quebecThread)” as the bot account (it lands on page 1), quoting Zoë Québec: "
            + "https://forum.example/showthread.php?threadid=3600002&perpage=40&pagenumber=1",
          "        > Qui vote dimanche ?",
          "        with your text:",
          "        > Moi aussi, après le travail.",
          "        Say !confirm within 2 minutes to post it, or !cancel.",
          "> !confirm",
          "The forum refused the reply: This forum requires that you wait 600 seconds between posts. Please try again "
            + "in ‹n› seconds. The text is kept: say !confirm to try again (within 2 minutes), or !cancel.",
          "> !confirm",
          "Posted: “\(Self.quebecThread)”, quoting Zoë Québec. "
            + "https://forum.example/showthread.php?threadid=3600002&perpage=40&pagenumber=1#post\(newID)",
        ], "a reply refused by the flood check, then posted")

      let posted = try #require(await chat.forum.state.post(newID))
      #expect(posted.authorID == FakeForumSeed.botUserID)
      #expect(
        posted.body
          == .bbcode(
            "[quote=\"Zoë Québec\" post=\"\(postID)\"]\nQui vote dimanche ?\n[/quote]\n\nMoi aussi, après le travail."))
      try await Self.expectLinkLands(transcript.last ?? "", postID: newID, chat)
    }
  }

  @Test("posts relayed by one poll carry different r-numbers, rising in the order they are shown")
  func referencesOfOnePoll() async throws {
    try await ConsoleChat.with { chat in
      let admin = FakeForumAdminClient(baseURL: chat.baseURL)
      let before = chat.relayCount
      let posts = [
        (3_600_002, "Zoë Québec", "The first of three."), (3_600_001, "Majuju", "The second of three."),
        (3_600_002, "angerbot", "The third of three."),
      ]
      for (thread, author, body) in posts { try await admin.addPost(thread: thread, author: author, body: body) }
      let relays = try await chat.relays(after: before, count: posts.count)
      let numbers = relays.compactMap { relay in relay.firstMatch(of: #/^r(\d+) /#).flatMap { Int($0.output.1) } }
      #expect(numbers.count == posts.count, "every relay starts with an r-number: \(relays)")
      #expect(Set(numbers).count == numbers.count, "one r-number names one relay: \(numbers)")
      #expect(numbers == numbers.sorted(), "r-numbers rise in the order the relays are shown: \(numbers)")

      // Each r-number answers the post its own relay shows.
      for (relay, number) in zip(relays, numbers) {
        guard let (_, author, body) = posts.first(where: { relay.contains($0.2) }) else {
          Issue.record("a relay of none of the posts: \(relay)")
          continue
        }
        let preview = try await chat.say("!re r\(number) Which one?")
        #expect(
          preview.contains("quoting \(author):") && preview.contains("> \(body)\n"),
          "r\(number) for “\(body)”: \(preview)")
        #expect(try await chat.say("!cancel") == "Dropped the reply; nothing was posted.")
      }
    }
  }

  @Test("!replies off: relays come without an r-number and !re says replying is off; !replies admin turns it back on")
  func repliesOff() async throws {
    try await ConsoleChat.with { chat in
      let admin = FakeForumAdminClient(baseURL: chat.baseURL)
      var before = chat.relayCount
      try await admin.addPost(thread: 3_600_003, author: "angerbot", body: "My desk, finally tidy.")
      let numbered = try await chat.relays(after: before, count: 1)[0]
      let reference = try #require(numbered.firstMatch(of: #/^(r\d+) /#).map { String($0.output.1) }, "\(numbered)")

      var transcript = try await Self.exchange(
        ["!replies sideways", "!replies off", "!re \(reference) Nice desk."], chat)
      before = chat.relayCount
      try await admin.addPost(thread: 3_600_003, author: "Majuju", body: "Mine is not.")
      let plain = Self.readable(try await chat.relays(after: before, count: 1)[0], chat)
      #expect(plain.hasPrefix("Post your desk 📷 — Majuju, ‹now›\n"), "no r-number while replies are off: \(plain)")

      transcript += try await Self.exchange(["!replies admin"], chat)
      before = chat.relayCount
      try await admin.addPost(thread: 3_600_003, author: "Zoë Québec", body: "Neither is mine.")
      let again = try await chat.relays(after: before, count: 1)[0]
      #expect(again.firstMatch(of: #/^r\d+ Post your desk 📷 — Zoë Québec, /#) != nil, "numbered again: \(again)")
      #expect(!again.hasPrefix(reference + " "), "a new relay takes a new r-number: \(again)")
      expectConsoleTranscript(
        transcript,
        [
          "> !replies sideways",
          "Usage: !replies off|viewer|member|admin",
          "> !replies off",
          "Answering relayed posts no longer posts to the forum from this room.",
          "> !re \(reference) Nice desk.",
          "Replying to relayed posts is off in this room; an admin can turn it on with !replies admin.",
          "> !replies admin",
          "From now on admins may reply on the forum here by answering a relayed post (a preview to confirm "
            + "first).",
        ], "replies off and on again")
    }
  }

  // MARK: Helpers

  /// `text` as a person reads it in a transcript: the forum at `forumHost`, today's times as `‹now›`.
  static func readable(_ text: String, _ chat: ConsoleChat) -> String {
    ConsoleAcceptanceTests.readable(text, chat).replacing(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/, with: "‹now›")
  }

  /// Types each line and returns the exchange as the person saw it: `> line`, then the answer's lines.
  static func exchange(_ lines: [String], _ chat: ConsoleChat) async throws -> [String] {
    var transcript: [String] = []
    for line in lines {
      transcript.append("> \(line)")
      transcript += readable(try await chat.say(line), chat).components(separatedBy: "\n")
    }
    return transcript
  }

  /// The link ending `line` (the last word), followed as a reader would: the page must hold post `postID`.
  static func expectLinkLands(_ line: String, postID: Int, _ chat: ConsoleChat) async throws {
    let link = String(line.split(separator: " ").last ?? "")
    #expect(link.hasPrefix(ConsoleAcceptanceTests.forumHost), "no forum link at the end of \(line)")
    let base = chat.baseURL.absoluteString
    let root = base.hasSuffix("/") ? String(base.dropLast()) : base
    try await ForumLinkFollower.with(chat.baseURL, username: "Pickled Tink", password: "pickles") { follower in
      let landing = try await follower.follow(
        link.replacingOccurrences(of: ConsoleAcceptanceTests.forumHost, with: root))
      #expect(
        landing.status == 200 && landing.shows(postID: String(postID)),
        "\(link) opened \(landing.url) without post \(postID)")
    }
  }
}

/// Compares a console transcript with the expected one; on a difference, names the first line that differs and
/// shows the whole exchange as the bot said it.
func expectConsoleTranscript(
  _ actual: [String], _ expected: [String], _ what: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  var firstDifference = ""
  if let index = zip(actual, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
    firstDifference = "line \(index + 1):\n  expected: \(expected[index])\n  actual:   \(actual[index])\n"
  } else if actual.count != expected.count {
    firstDifference = "\(actual.count) lines, expected \(expected.count)\n"
  }
  #expect(
    actual == expected, "\(what): \(firstDifference)the whole transcript:\n\(actual.joined(separator: "\n"))",
    sourceLocation: sourceLocation)
}
