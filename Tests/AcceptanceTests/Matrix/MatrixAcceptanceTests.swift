import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import FakeForum
import Foundation
import MatrixModel
import MatrixTransport
import Testing

extension MatrixIntegrationTests.PeopleChain {
  /// What people in a Matrix room read (issue 12, item 10). Ordinary accounts on Synapse — a plain user (power 0), a
  /// room moderator (power 50), the room's owner (its creator: admin by power) and an admin named in the bot's
  /// config (`roleOverrides`, power 0) — type every command of the README's table with good and bad arguments, and
  /// read relays of posts holding every kind of content, created through the emulator's admin API. Every link to a
  /// post is followed, as a reader logged in to the forum, to the page it opens.
  ///
  /// Transcripts are "who: body" lines in the room's order, links to the emulator written under
  /// https://forum.example, and times of the test run itself as `<now>`. Read them as a person in the room would.
  @Suite("Matrix acceptance: what people in a room read", .serialized)
  struct MatrixAcceptanceTests {
    static let thread1 = "AwfulBot development thread: bridging the forums and chat"
    static let link1 = "https://forum.example/showthread.php?threadid=3600001&perpage=40"
    static let link2 = "https://forum.example/showthread.php?threadid=3600002&perpage=40"
    static let link3 = "https://forum.example/showthread.php?threadid=3600003&perpage=40"
    static let link4 = "https://forum.example/showthread.php?threadid=3600004&perpage=40"
    static let link5 = "https://forum.example/showthread.php?threadid=3600005&perpage=40"

    // MARK: Commands

    /// Every command of the README's table, good and bad arguments, by the people allowed and not allowed to use it.
    static let commandTranscript: [String] = [
      "plain: !status",
      """
      bot: Mode: each post · quiet: off · unfurl: on
      Follows: nothing
      Messages: 0 waiting, 0 delivered, 0 held, 0 refused, 0 given up
      Polling bookmarks: ok, last <now>
      """,
      "plain: !help",
      """
      bot: 36 commands (you are a viewer):
      Viewer (14): help, bookmarks, subscriptions, forums, threads, latest, search, lepers, confirm, cancel, re, status, why, alerts
      Member (15, not for you): bookmark, unbookmark, undo, watch, unwatch, subscribe, unsubscribe, quiet, mode, pause, resume, pictures, editnotices, alert, unalert
      Admin (7, not for you): reply, pms, pm, pmreply, unfurl, replies, reactions
      !help <command> explains one; !help all lists them all with their usage.
      """,
      "plain: !help watch",
      """
      bot: !watch <thread> [--op-only] [--author X] [--not-author X] [--keyword K] [--backfill N] — Relay a thread's new posts here (also bookmarks it on the forum).
      Needs the member role (you are a viewer).
      """,
      "plain: !help nonsense",
      "bot: There is no command “nonsense”; !help lists them.",
      "plain: !helpp",
      "bot: Unknown command “helpp”. Did you mean !help? !help lists the commands.",
      "plain: !bokmarks",
      "bot: Unknown command “bokmarks”. Did you mean !bookmarks? !help lists the commands.",
      "plain: !bookmarks",
      """
      bot: Bookmarks, page 1 of 1:
      • Québec politics thread: «débat» 🍁 (3600002) — red, 2 unread, 3 replies, last by Majuju 2024-01-18 00:00 UTC \(link2)
      • \(thread1) (3600001) — orange, 45 unread, 94 replies, last by Zoë Québec 2024-01-17 22:35 UTC \(link1)
      • Post your desk 📷 (3600003) — orange, 1 reply, last by Zoë Québec 2024-01-16 03:00 UTC \(link3)
      • This thread is closed (3600004) — closed, red, 1 reply, last by Pickled Tink 2024-01-15 13:00 UTC \(link4)
      """,
      "plain: !bookmarks 99",
      "bot: The bookmarks have 1 page; there is no page 99.",
      "plain: !bookmarks sideways",
      "bot: “sideways” is neither a page number nor unread/recent. Usage: !bookmarks [page] [unread|recent]",
      "plain: !forums",
      """
      bot: Forums (4):
      • General Bullshit (273) https://forum.example/forumdisplay.php?forumid=273
      • The Cholesterol Clubhouse (669) https://forum.example/forumdisplay.php?forumid=669
      • Debate & Discussion (46) https://forum.example/forumdisplay.php?forumid=46
      • The Cavern of COBOL (202) https://forum.example/forumdisplay.php?forumid=202
      """,
      "plain: !forums cobol",
      """
      bot: Forums matching “cobol” (1):
      • The Cavern of COBOL (202) https://forum.example/forumdisplay.php?forumid=202
      """,
      "plain: !forums zzzz",
      "bot: No forum matches “zzzz”.",
      "plain: !threads 202",
      """
      bot: The Cavern of COBOL, page 1 of 1:
      • \(thread1) (3600001) — orange, 45 unread, 94 replies, last by Zoë Québec 2024-01-17 22:35 UTC \(link1)
      """,
      "plain: !threads 202 9",
      "bot: The Cavern of COBOL has 1 page; there is no page 9.",
      "plain: !latest 3600002 2",
      """
      bot: “Québec politics thread: «débat» 🍁” — last 2 posts: \(link2)
      • angerbot, 2024-01-15 16:20 UTC:
        > Pickled Tink posted:
        > A news link about the election.
        Please stay on topic. [spoiler]
        \(link2)&pagenumber=1#post400000097
      • Majuju, 2024-01-18 00:00 UTC:
        日本語のテキストも大丈夫です。 🇨🇦
        \(link2)&pagenumber=1#post400000098
      """,
      "plain: !latest 99999999",
      "bot: No such thread on the forum, or the bot's forum account cannot see it.",
      "plain: !why 3600001",
      """
      bot: 3600001 is the thread “\(thread1)”, not a post. !why needs a post: a link ending in #post123, or that number. \
      Usage: !why <post link | post id>
      """,
      "plain: !why 400000001",
      "bot: Post 400000001 was not sent here: this room has no subscriptions, so no posts are relayed here.",
      "plain: !why",
      "bot: Usage: !why <post link | post id>",
      "plain: !subscriptions",
      "bot: This room follows nothing yet; try !subscribe bookmarks or !watch <thread>.",
      "plain: !alerts",
      "bot: This room has no alerts.",
      "plain: !watch 3600005",
      "bot: “watch” needs the member role; you are a viewer.",
      "plain: !bookmark 3600005",
      "bot: “bookmark” needs the member role; you are a viewer.",
      "plain: !reply 3600001 hi",
      "bot: “reply” needs the admin role; you are a viewer.",
      "moderator: !help",
      """
      bot: 36 commands (you are a member):
      Viewer (14): help, bookmarks, subscriptions, forums, threads, latest, search, lepers, confirm, cancel, re, status, why, alerts
      Member (15): bookmark, unbookmark, undo, watch, unwatch, subscribe, unsubscribe, quiet, mode, pause, resume, pictures, editnotices, alert, unalert
      Admin (7, not for you): reply, pms, pm, pmreply, unfurl, replies, reactions
      !help <command> explains one; !help all lists them all with their usage.
      """,
      "moderator: !watch 99999999",
      "bot: No such thread on the forum, or the bot's forum account cannot see it.",
      "moderator: !watch 3600005",
      """
      bot: Watching “What did you eat today?”: new posts will appear here. \(link5)
      The thread was bookmarked on the forum so the bot sees new posts.
      """,
      "moderator: !subscriptions",
      """
      bot: This room follows:
      • thread 3600005 \(link5)
      """,
      "moderator: !unwatch 3600005",
      "bot: Stopped watching thread 3600005 here and removed the bookmark the bot had added.",
      "moderator: !unwatch 3600005",
      "bot: This room is not watching thread 3600005.",
      "moderator: !bookmark 3600005 mauve",
      "bot: Unknown colour “mauve”; use one of orange, red, yellow, cyan, green, purple. Usage: !bookmark <thread> [colour]",
      "moderator: !bookmark 3600005 green",
      "bot: Bookmarked “What did you eat today?” (green). !undo reverts it. \(link5)",
      "moderator: !undo",
      "bot: Undone: bookmarked “What did you eat today?” (green).",
      "moderator: !unbookmark 99999999",
      "bot: No such thread on the forum, or the bot's forum account cannot see it.",
      "moderator: !subscribe",
      "bot: Usage: !subscribe bookmarks [colour…] | announcements | lepers | forum <forum> [--backfill N]",
      "moderator: !subscribe bookmarks red",
      "bot: Subscribed this room to bookmarks starred red.",
      "moderator: !unsubscribe bookmarks red",
      "bot: Unsubscribed this room from bookmarks starred red.",
      "moderator: !subscribe forum 202",
      "bot: Subscribed this room to new threads in The Cavern of COBOL.",
      "moderator: !subscribe forum zzzz",
      "bot: No forum matches “zzzz”; try !forums zzzz.",
      "moderator: !unsubscribe forum 202",
      "bot: Unsubscribed this room from new threads in The Cavern of COBOL.",
      "moderator: !subscribe announcements",
      "bot: Subscribed this room to announcements.",
      "moderator: !unsubscribe announcements",
      "bot: Unsubscribed this room from announcements.",
      "moderator: !mode summary 2",
      "bot: Mode set: summary (more than 2 new posts in a thread become one message).",
      "moderator: !mode each",
      "bot: Mode set: each post.",
      "moderator: !mode sideways",
      "bot: Usage: !mode each | summary [K] | digest hourly | digest daily HH:MM",
      "moderator: !quiet 22:00-07:00",
      "bot: Quiet hours set: daily 22:00–07:00 (UTC).",
      "moderator: !quiet off",
      "bot: Quiet hours are off; held posts will be sent now.",
      "moderator: !quiet 25:00-07:00",
      "bot: Quiet hours look like 23:00-07:30. Usage: !quiet <HH:MM-HH:MM> | off | for <duration>",
      "moderator: !pause",
      "bot: Paused: new posts are held for this room until !resume.",
      "moderator: !resume",
      "bot: Resumed: posts held while paused arrive as one digest; new posts are relayed as before.",
      "moderator: !alert Zoë Québec",
      "bot: Alerts need the admin role; you could set one on your own forum name if the config gave it "
        + "(roles[].forumName).",
      "moderator: !unfurl off",
      "bot: “unfurl” needs the admin role; you are a member.",
      "moderator: !reply 3600001 hi",
      "bot: “reply” needs the admin role; you are a member.",
      "moderator: !confirm",
      "bot: Nothing to confirm: start with !reply <thread> <text>.",
      "admin: !help",
      """
      bot: 36 commands (you are an admin):
      Viewer (14): help, bookmarks, subscriptions, forums, threads, latest, search, lepers, confirm, cancel, re, status, why, alerts
      Member (15): bookmark, unbookmark, undo, watch, unwatch, subscribe, unsubscribe, quiet, mode, pause, resume, pictures, editnotices, alert, unalert
      Admin (7): reply, pms, pm, pmreply, unfurl, replies, reactions
      !help <command> explains one; !help all lists them all with their usage.
      """,
      "admin: !alert Zoë Québec",
      "bot: This room will hear when Zoë Québec is quoted or mentioned.",
      "admin: !alerts",
      "bot: Alerts: Zoë Québec.",
      "admin: !unalert Zoë Québec",
      "bot: Stopped the alert on Zoë Québec.",
      "admin: !unalert Nobody",
      "bot: This room has no alert on Nobody.",
      "admin: !unfurl off",
      "bot: Forum links will no longer be unfurled.",
      "admin: !unfurl sideways",
      "bot: Usage: !unfurl on | off",
      "admin: !unfurl on",
      "bot: Forum links pasted here will be unfurled.",
      "owner: !help cancel",
      """
      bot: !cancel — Drop the reply you previewed.
      Needs the viewer role (you are an admin).
      """,
      "owner: !reply 99999999 hello",
      "bot: No such thread on the forum, or the bot's forum account cannot see it.",
      "owner: !reply 3600001 hello there",
      """
      bot: Reply to “\(thread1)” as the bot account: \(link1)
      > hello there
      Say !confirm or react ✅ within 2 minutes to post it; !cancel or ❌ drops it.
      """,
      "owner: !cancel",
      "bot: Dropped the reply; nothing was posted.",
      "owner: !confirm",
      "bot: Nothing to confirm: start with !reply <thread> <text>.",
      "owner: !reply 3600001 Posted from Matrix.",
      """
      bot: Reply to “\(thread1)” as the bot account: \(link1)
      > Posted from Matrix.
      Say !confirm or react ✅ within 2 minutes to post it; !cancel or ❌ drops it.
      """,
      "owner: !confirm",
      """
      bot: Posted to “\(thread1)”. \
      https://forum.example/showthread.php?threadid=3600001&perpage=40&pagenumber=3#post400000105
      """,
    ]

    /// The lines people type, taken from the transcript.
    static var commandLines: [String] { commandTranscript.filter { !$0.hasPrefix("bot: ") } }

    @Test("every command with good and bad arguments, read by a plain user, a moderator, the owner and an admin")
    func commands() async throws {
      try await MatrixTestWorld.with { world in
        let admin = try await MatrixHuman.register("admin")
        let bot = try MatrixBotProcess(world: world) { $0.roleOverrides = [admin.userID: .admin] }
        try await bot.run { bot in
          let room = try await MatrixAcceptanceRoom.open(world: world, bot: bot, configuredAdmin: admin)
          // As the running bot does first thing: it reads its bookmarks, so it knows its threads.
          await bot.pollBookmarks()
          for line in Self.commandLines { try await room.ask(line) }
          let events = try await room.messages()
          #expect(room.transcript(events) == Self.commandTranscript)
          Self.expectSafe(events, room)

          // The HTML of a list is a list, each entry a link; of a refusal, the sentence.
          let answers = events.filter { $0.sender == world.botAccount.userID }
          let bookmarks = try #require(answers.first { $0.body?.hasPrefix("Bookmarks, page 1 of 1") == true })
          #expect(
            room.readable(bookmarks.formattedBody ?? "")
              == #"<p>Bookmarks, page 1 of 1:</p><ul><li><a href="https://forum.example/showthread.php?threadid=3600002&amp;perpage=40">Québec politics thread: «débat» 🍁</a> (3600002) — red, 2 unread, 3 replies, last by Majuju 2024-01-18 00:00 UTC</li><li><a href="https://forum.example/showthread.php?threadid=3600001&amp;perpage=40">AwfulBot development thread: bridging the forums and chat</a> (3600001) — orange, 45 unread, 94 replies, last by Zoë Québec 2024-01-17 22:35 UTC</li><li><a href="https://forum.example/showthread.php?threadid=3600003&amp;perpage=40">Post your desk 📷</a> (3600003) — orange, 1 reply, last by Zoë Québec 2024-01-16 03:00 UTC</li><li><a href="https://forum.example/showthread.php?threadid=3600004&amp;perpage=40">This thread is closed</a> (3600004) — closed, red, 1 reply, last by Pickled Tink 2024-01-15 13:00 UTC</li></ul>"#
          )
          let refusal = try #require(answers.first { $0.body?.contains("needs the admin role") == true })
          #expect(refusal.formattedBody == "<p>“reply” needs the admin role; you are a viewer.</p>")
          let latest = try #require(answers.first { $0.body?.contains("last 2 posts") == true })
          #expect(
            room.readable(latest.formattedBody ?? "")
              == #"<p><a href="https://forum.example/showthread.php?threadid=3600002&amp;perpage=40">“Québec politics thread: «débat» 🍁”</a> — last 2 posts:</p><blockquote><p><b>angerbot</b>, <a href="https://forum.example/showthread.php?threadid=3600002&amp;perpage=40&amp;pagenumber=1#post400000097">2024-01-15 16:20 UTC</a></p><blockquote><p><b><a href="https://forum.example/showthread.php?goto=post&amp;postid=400000096#post400000096">Pickled Tink posted:</a></b></p>A news link about the election.</blockquote>Please stay on topic. <span data-mx-spoiler="">Or else.</span></blockquote><blockquote><p><b>Majuju</b>, <a href="https://forum.example/showthread.php?threadid=3600002&amp;perpage=40&amp;pagenumber=1#post400000098">2024-01-18 00:00 UTC</a></p>日本語のテキストも大丈夫です。 🇨🇦</blockquote>"#
          )

          // What the bot did on the forum is what it said.
          #expect(await world.forumState.bookmarks(user: FakeForumSeed.botUserID)[3_600_005] == nil, "undone")
          let posted = await world.forumState.post(400_000_105)
          #expect(posted?.authorID == FakeForumSeed.botUserID)
          #expect(posted.map { "\($0.body)" }?.contains("Posted from Matrix.") == true)

          // Links to posts open the page that holds the post (`latest`'s, the quote's source through the forum's
          // redirect, and the reply's).
          try await Self.expectLinksLand(
            [
              ("\(Self.link2)&pagenumber=1#post400000097", 400_000_097),
              ("https://forum.example/showthread.php?goto=post&postid=400000096#post400000096", 400_000_096),
              ("\(Self.link2)&pagenumber=1#post400000098", 400_000_098),
              ("https://forum.example/showthread.php?goto=post&postid=400000105#post400000105", 400_000_105),
            ], room)
        }
      }
    }

    @Test("counts an answer states match what it lists: bookmarks over two pages, forums, help")
    func countsMatchLists() async throws {
      try await MatrixTestWorld.with { world in
        // 45 more bookmarks: 49 in all, two pages of 40.
        _ = try await world.forumState.addGeneratedThreads(
          count: 45, forum: 273, author: 1002, titlePrefix: "Generated thread", bookmarkedBy: FakeForumSeed.botUserID)
        let bot = try MatrixBotProcess(world: world)
        try await bot.run { bot in
          let room = try await MatrixAcceptanceRoom.open(world: world, bot: bot)
          let page1 = try await room.ask("plain: !bookmarks").compactMap(\.body).joined(separator: "\n")
          let page2 = try await room.ask("plain: !bookmarks 2").compactMap(\.body).joined(separator: "\n")
          let page3 = try await room.ask("plain: !bookmarks 3").compactMap(\.body).joined(separator: "\n")
          #expect(page1.hasPrefix("Bookmarks, page 1 of 2:\n"))
          #expect(page2.hasPrefix("Bookmarks, page 2 of 2:\n"))
          #expect(page3 == "The bookmarks have 2 pages; there is no page 3.")
          let items = { (text: String) in text.components(separatedBy: "\n").filter { $0.hasPrefix("• ") } }
          #expect(items(page1).count == 40)
          #expect(items(page2).count == 9)
          #expect(page1.hasSuffix("\n!bookmarks 2 shows the next page."), "page 1 says how to see page 2")
          #expect(!page2.contains("shows the next page"))
          let listed = Set((items(page1) + items(page2)).compactMap { $0.firstMatch(of: /\((\d{7})\)/)?.1 })
          #expect(listed.count == 49, "every bookmark once, across the two pages")

          // The HTML lists as many entries as the body.
          let html = try await room.ask("plain: !bookmarks").compactMap(\.formattedBody).joined()
          #expect(html.components(separatedBy: "<li>").count - 1 == 40)

          let forums = try #require(try await room.ask("plain: !forums").first?.body)
          let stated = try #require(forums.firstMatch(of: /^Forums \((\d+)\):/)?.1).description
          #expect(Int(stated) == items(forums).count)
          #expect(items(forums).count == 4)

          // help names every command of the README's table, and says how many.
          let help = try #require(try await room.ask("plain: !help").first?.body)
          let named = help.components(separatedBy: "\n").dropFirst().filter { $0.contains("): ") }
            .flatMap { $0.components(separatedBy: "): ")[1].components(separatedBy: ", ") }
          let readme = try Repository.readmeCommands()
          #expect(Set(named) == readme)
          #expect(named.count == readme.count)
          #expect(help.hasPrefix("\(readme.count) commands (you are a viewer):"))
          let all = try await room.ask("plain: !help all").compactMap(\.body).joined(separator: "\n")
          #expect(all.hasPrefix("All \(readme.count) commands (you are a viewer):"))
          #expect(items(all).count == readme.count)
          Self.expectSafe(try await room.messages(), room)
        }
      }
    }

    /// Numbers the bot has no record of: a thread id given to `why`, a forum id that does not exist.
    @Test("a thread id the bot has not stored, a forum id that does not exist")
    func unknownNumbers() async throws {
      try await MatrixTestWorld.with { world in
        let bot = try MatrixBotProcess(world: world)
        try await bot.run { bot in
          let room = try await MatrixAcceptanceRoom.open(world: world, bot: bot)
          try await room.ask("moderator: !subscribe bookmarks")
          await bot.pollBookmarks()
          // 3600006 is a thread (the sticky rules thread), not among the bot's bookmarks: the forum tells.
          let why = try #require(try await room.ask("plain: !why 3600006").first?.body)
          #expect(why.hasPrefix("3600006 is the thread “"), "answer: \(why)")
          #expect(why.contains("not a post. !why needs a post"), "answer: \(why)")
          let threads = try #require(try await room.ask("plain: !threads 99999").first?.body)
          #expect(threads == "No forum has the id 99999; !forums lists them.")
        }
      }
    }

    // MARK: Relays

    static let longWords = (1...150).map { "word\($0)" }.joined(separator: " ")
    /// 2024-02-01 12:20 UTC, after every seeded post: the relayed posts are dated a minute apart from here.
    static let firstDate = Date(timeIntervalSince1970: 1_706_790_000)

    /// One post of each kind of content, in posting order, with what the room reads: the body, then the HTML.
    static let contentPosts:
      [(thread: Int, author: String, bbcode: String, html: Bool, body: String, formatted: String)] = [
        (
          3_600_001, "Pickled Tink",
          "[quote=\"Zoë Québec\" post=\"400000090\"]\n\(longWords)\n[/quote]\nThis is my answer, after a long quote.",
          false,
          """
          bot: \(thread1) — Pickled Tink, 2024-02-01 12:20 UTC
          > Zoë Québec posted:
          > word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12…
          This is my answer, after a long quote.
          \(link1)&pagenumber=3#post<ID>
          """,
          #"<p><b><a href="\#(link1a)">\#(thread1)</a></b> — <b>Pickled Tink</b>, <a href="\#(link1a)&amp;pagenumber=3#post<ID>">2024-02-01 12:20 UTC</a></p><blockquote><p><b><a href="https://forum.example/showthread.php?goto=post&amp;postid=400000090#post400000090">Zoë Québec posted:</a></b></p>word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12…</blockquote>This is my answer, after a long quote.<p><a href="\#(link1a)&amp;pagenumber=3#post<ID>">Read the whole post</a></p>"#
        ),
        (
          3_600_002, "Zoë Québec", "[quote=\"Majuju\"]\nJust a quote, nothing else.\n[/quote]", false,
          """
          bot: Québec politics thread: «débat» 🍁 — Zoë Québec, 2024-02-01 12:21 UTC
          > Majuju posted:
          > Just a quote, nothing else.
          (only a quote, no words of their own)
          \(link2)&pagenumber=1#post<ID>
          """,
          #"<p><b><a href="\#(link2a)">Québec politics thread: «débat» 🍁</a></b> — <b>Zoë Québec</b>, <a href="\#(link2a)&amp;pagenumber=1#post<ID>">2024-02-01 12:21 UTC</a></p><blockquote><p><b>Majuju posted:</b></p>Just a quote, nothing else.</blockquote><p><i>(only a quote, no words of their own)</i></p>"#
        ),
        (
          3_600_002, "Zoë Québec",
          "[quote=\"Majuju\"]\n[quote=\"angerbot\"]\ninner words\n[/quote]\nouter words\n[/quote]\nAnd my own words.",
          false,
          """
          bot: Québec politics thread: «débat» 🍁 — Zoë Québec, 2024-02-01 12:22 UTC
          > Majuju posted:
          > outer words
          And my own words.
          \(link2)&pagenumber=1#post<ID>
          """,
          #"<p><b><a href="\#(link2a)">Québec politics thread: «débat» 🍁</a></b> — <b>Zoë Québec</b>, <a href="\#(link2a)&amp;pagenumber=1#post<ID>">2024-02-01 12:22 UTC</a></p><blockquote><p><b>Majuju posted:</b></p>outer words</blockquote>And my own words.<p><a href="\#(link2a)&amp;pagenumber=1#post<ID>">Read the whole post</a></p>"#
        ),
        (
          3_600_001, "Majuju",
          "Look: [img]https://i.example.com/cat.png[/img], and [timg]https://i.example.com/big.jpg[/timg]!", false,
          """
          bot: \(thread1) — Majuju, 2024-02-01 12:23 UTC
          Look: [image] https://i.example.com/cat.png (picture not shown: its server could not be found), and [image] https://i.example.com/big.jpg (picture not shown: its server could not be found)!
          \(link1)&pagenumber=3#post<ID>
          """,
          #"<p><b><a href="\#(link1a)">\#(thread1)</a></b> — <b>Majuju</b>, <a href="\#(link1a)&amp;pagenumber=3#post<ID>">2024-02-01 12:23 UTC</a></p>Look: [image] <a href="https://i.example.com/cat.png">https://i.example.com/cat.png</a> (picture not shown: its server could not be found), and [image] <a href="https://i.example.com/big.jpg">https://i.example.com/big.jpg</a> (picture not shown: its server could not be found)!"#
        ),
        (
          3_600_003, "angerbot",
          "[url=https://example.com/news]The news[/url], and a bare one: https://example.com/bare?x=1&y=2", false,
          """
          bot: Post your desk 📷 — angerbot, 2024-02-01 12:24 UTC
          The news (https://example.com/news), and a bare one: https://example.com/bare?x=1&y=2
          \(link3)&pagenumber=1#post<ID>
          """,
          #"<p><b><a href="\#(link3a)">Post your desk 📷</a></b> — <b>angerbot</b>, <a href="\#(link3a)&amp;pagenumber=1#post<ID>">2024-02-01 12:24 UTC</a></p><a href="https://example.com/news">The news</a>, and a bare one: <a href="https://example.com/bare?x=1&amp;y=2">https://example.com/bare?x=1&amp;y=2</a>"#
        ),
        (
          3_600_003, "Zoë Québec", "The ending: [spoiler]everyone dies[/spoiler].", false,
          """
          bot: Post your desk 📷 — Zoë Québec, 2024-02-01 12:25 UTC
          The ending: [spoiler].
          \(link3)&pagenumber=1#post<ID>
          """,
          #"<p><b><a href="\#(link3a)">Post your desk 📷</a></b> — <b>Zoë Québec</b>, <a href="\#(link3a)&amp;pagenumber=1#post<ID>">2024-02-01 12:25 UTC</a></p>The ending: <span data-mx-spoiler="">everyone dies</span>."#
        ),
        (
          3_600_001, "Zoë Québec", "[code]\nlet x = 1\nif x < 2 { print(\"<b>\") }\n[/code]\nThat prints <b>.", false,
          """
          bot: \(thread1) — Zoë Québec, 2024-02-01 12:26 UTC
          let x = 1
          if x < 2 { print("<b>") }
          That prints <b>.
          \(link1)&pagenumber=3#post<ID>
          """,
          #"<p><b><a href="\#(link1a)">\#(thread1)</a></b> — <b>Zoë Québec</b>, <a href="\#(link1a)&amp;pagenumber=3#post<ID>">2024-02-01 12:26 UTC</a></p><pre><code>let x = 1"#
            + "\n"
            + #"if x &lt; 2 { print(&quot;&lt;b&gt;&quot;) }</code></pre>That prints &lt;b&gt;."#
        ),
        (
          3_600_002, "Pickled Tink", "Ünïcödé 日本語 😀 — ça va? Привет, مرحبا! @room @alice:localhost", false,
          """
          bot: Québec politics thread: «débat» 🍁 — Pickled Tink, 2024-02-01 12:27 UTC
          Ünïcödé 日本語 😀 — ça va? Привет, مرحبا! @\u{2060}room @\u{2060}alice:localhost
          \(link2)&pagenumber=1#post<ID>
          """,
          #"<p><b><a href="\#(link2a)">Québec politics thread: «débat» 🍁</a></b> — <b>Pickled Tink</b>, <a href="\#(link2a)&amp;pagenumber=1#post<ID>">2024-02-01 12:27 UTC</a></p>Ünïcödé 日本語 😀 — ça va? Привет, مرحبا! @"#
            + "\u{2060}room @\u{2060}alice:localhost"
        ),
        (
          3_600_001, "angerbot",
          "<script>alert(1)</script> [url=javascript:alert(2)]click me[/url] [url=https://matrix.to/#/@alice:localhost]Alice[/url]",
          false,
          """
          bot: \(thread1) — angerbot, 2024-02-01 12:28 UTC
          <script>alert(1)</script> click me Alice (https://matrix.to/#/@\u{2060}alice:localhost)
          \(link1)&pagenumber=3#post<ID>
          """,
          #"<p><b><a href="\#(link1a)">\#(thread1)</a></b> — <b>angerbot</b>, <a href="\#(link1a)&amp;pagenumber=3#post<ID>">2024-02-01 12:28 UTC</a></p>&lt;script&gt;alert(1)&lt;/script&gt; click me Alice"#
        ),
        (
          3_600_001, "Majuju",
          #"<p>Raw <script>alert(3)</script><a href="javascript:alert(4)">click</a> <a href="https://matrix.to/#/#room:localhost">a room</a> <img src="x" onerror="alert(5)"></p>"#,
          true,
          """
          bot: \(thread1) — Majuju, 2024-02-01 12:29 UTC
          Raw click a room (https://matrix.to/#/#room:localhost) [image] https://forum.example/x (picture not shown: its address is not allowed)
          \(link1)&pagenumber=3#post<ID>
          """,
          #"<p><b><a href="\#(link1a)">\#(thread1)</a></b> — <b>Majuju</b>, <a href="\#(link1a)&amp;pagenumber=3#post<ID>">2024-02-01 12:29 UTC</a></p><p>Raw click a room [image] <a href="https://forum.example/x">https://forum.example/x</a> (picture not shown: its address is not allowed)</p>"#
        ),
        (
          3_600_001, "Pickled Tink", longWords, false,
          """
          bot: \(thread1) — Pickled Tink, 2024-02-01 12:30 UTC
          \((1...58).map { "word\($0)" }.joined(separator: " "))…
          \(link1)&pagenumber=3#post<ID>
          """,
          #"<p><b><a href="\#(link1a)">\#(thread1)</a></b> — <b>Pickled Tink</b>, <a href="\#(link1a)&amp;pagenumber=3#post<ID>">2024-02-01 12:30 UTC</a></p>"#
            + (1...58).map { "word\($0)" }.joined(separator: " ")
            + #"…<p><a href="\#(link1a)&amp;pagenumber=3#post<ID>">Read the whole post</a></p>"#
        ),
      ]
    /// The thread links as they appear in HTML (`&` escaped).
    static let link1a = link1.replacingOccurrences(of: "&", with: "&amp;")
    static let link2a = link2.replacingOccurrences(of: "&", with: "&amp;")
    static let link3a = link3.replacingOccurrences(of: "&", with: "&amp;")

    @Test("relays of every kind of post read right in body and HTML, and every link opens the page with its post")
    func relays() async throws {
      try await MatrixTestWorld.with { world in
        let bot = try MatrixBotProcess(world: world)
        try await bot.run { bot in
          let room = try await MatrixAcceptanceRoom.open(world: world, bot: bot)
          try await room.ask("moderator: !subscribe bookmarks")
          await bot.pollBookmarks()  // the room starts after the posts there are now
          #expect(try await room.relays().isEmpty)

          let admin = FakeForumAdminClient(baseURL: world.forumURL)
          var ids: [Int] = []
          for (offset, post) in Self.contentPosts.enumerated() {
            ids.append(
              try await admin.addPost(
                thread: post.thread, author: post.author, body: post.bbcode, html: post.html,
                date: Self.firstDate.addingTimeInterval(Double(offset) * 60)))
          }
          await bot.pollBookmarks()
          // Two posts show pictures that cannot be shown: the relay goes out at once and an edit then says why.
          let relays = try await room.waitForRelays(Self.contentPosts.count, edits: 2)

          let expectedBodies = zip(Self.contentPosts, ids).map {
            $0.body.replacingOccurrences(of: "<ID>", with: "\($1)")
          }
          #expect(room.transcript(relays) == expectedBodies)
          let expectedHTML = zip(Self.contentPosts, ids).map {
            $0.formatted.replacingOccurrences(of: "<ID>", with: "\($1)")
          }
          #expect(relays.map { room.readable($0.formattedBody ?? "(no HTML)") } == expectedHTML)
          Self.expectSafe(relays, room)

          // Every link to a post — the body's last line, the date and "Read the whole post" in the HTML — opens
          // the page holding that post (thread 3600001 has 95 posts before these: they are on page 3); a quote's
          // "X posted:" opens the page holding the quoted post (the forum's goto=post redirect).
          var links: [(String, Int)] = []
          for (relay, id) in zip(relays, ids) {
            let bodyLink = room.readable(relay.body ?? "").components(separatedBy: "\n").last ?? ""
            links.append((bodyLink, id))
            for href in relay.htmlLinks.map(room.readable) where href.contains("#post") {
              let quoted = href.range(of: #"goto=post&postid=(\d+)"#, options: .regularExpression).flatMap {
                Int(href[$0].dropFirst("goto=post&postid=".count))
              }
              links.append((href, quoted ?? id))
            }
          }
          #expect(
            links.count == 2 * ids.count + 3 + 1, "the three cut posts link to the rest too; one quote links its source"
          )
          #expect(links.contains { $0.1 == 400_000_090 }, "the quote of post 400000090 links it")
          try await Self.expectLinksLand(links, room)

          // why, with a post link, finds the relay.
          let why = try #require(
            try await room.ask("plain: !why \(Self.link1)&pagenumber=3#post\(ids[0])").first?.body)
          #expect(
            room.readable(why)
              == "Post \(ids[0]) in “\(Self.thread1)”:\n• post for all bookmarks: delivered, queued <now>, delivered <now>"
          )
        }
      }
    }

    @Test("posts of two threads made in one poll interval arrive in the order they were posted")
    func postingOrder() async throws {
      try await MatrixTestWorld.with { world in
        let bot = try MatrixBotProcess(world: world)
        try await bot.run { bot in
          let room = try await MatrixAcceptanceRoom.open(world: world, bot: bot)
          try await room.ask("moderator: !subscribe bookmarks")
          await bot.pollBookmarks()
          let admin = FakeForumAdminClient(baseURL: world.forumURL)
          // The emulator gets the development thread's posts first, then the Québec thread's; their dates interleave.
          let minute = { (n: Int) in Self.firstDate.addingTimeInterval(Double(n) * 60) }
          var ids: [String: Int] = [:]
          for (name, n) in [("A1", 0), ("A2", 2), ("A3", 4)] {
            ids[name] = try await admin.addPost(
              thread: 3_600_001, author: "Pickled Tink", body: "\(name): development, minute \(n)", date: minute(n))
          }
          for (name, n) in [("B1", 1), ("B2", 3)] {
            ids[name] = try await admin.addPost(
              thread: 3_600_002, author: "Zoë Québec", body: "\(name): Québec, minute \(n)", date: minute(n))
          }
          await bot.pollBookmarks()
          let relays = try await room.waitForRelays(5)
          let id = { (name: String) in ids[name].map(String.init) ?? "?" }
          #expect(
            room.transcript(relays) == [
              """
              bot: \(Self.thread1) — Pickled Tink, 2024-02-01 12:20 UTC
              A1: development, minute 0
              \(Self.link1)&pagenumber=3#post\(id("A1"))
              """,
              """
              bot: Québec politics thread: «débat» 🍁 — Zoë Québec, 2024-02-01 12:21 UTC
              B1: Québec, minute 1
              \(Self.link2)&pagenumber=1#post\(id("B1"))
              """,
              """
              bot: \(Self.thread1) — Pickled Tink, 2024-02-01 12:22 UTC
              A2: development, minute 2
              \(Self.link1)&pagenumber=3#post\(id("A2"))
              """,
              """
              bot: Québec politics thread: «débat» 🍁 — Zoë Québec, 2024-02-01 12:23 UTC
              B2: Québec, minute 3
              \(Self.link2)&pagenumber=1#post\(id("B2"))
              """,
              """
              bot: \(Self.thread1) — Pickled Tink, 2024-02-01 12:24 UTC
              A3: development, minute 4
              \(Self.link1)&pagenumber=3#post\(id("A3"))
              """,
            ])
        }
      }
    }

    // MARK: Shared checks

    /// What no message of the bot may hold, whatever the forum sent: script, `javascript:` links, mention pills, a
    /// live `@room`, images loaded from anywhere, mentions in `m.mentions`.
    static func expectSafe(_ events: [MatrixEvent], _ room: MatrixAcceptanceRoom) {
      for event in events where event.sender == room.world.botAccount.userID {
        let html = (event.formattedBody ?? "").lowercased()
        let body = event.body ?? ""
        #expect(event.msgtype == "m.notice", "\(body)")
        #expect(event.content["m.mentions"] == [:], "m.mentions of \(body)")
        for forbidden in ["<script", "javascript:", "href=\"https://matrix.to", "href=\"matrix:", "<img", "onerror"] {
          #expect(!html.contains(forbidden), "\(forbidden) in \(html)")
        }
        #expect(!body.contains("@room") && !html.contains("@room"), "@room in \(body)")
        if event.formattedBody != nil { #expect(event.content["format"] == "org.matrix.custom.html") }
      }
    }

    /// Follows each readable link as a reader logged in to the forum, and expects the page to show the post.
    static func expectLinksLand(_ links: [(String, Int)], _ room: MatrixAcceptanceRoom) async throws {
      try await ForumLinkFollower.with(room.world.forumURL, username: "Pickled Tink", password: "pickles") { follower in
        for (link, postID) in links {
          let landing = try await follower.follow(room.emulatorLink(link))
          #expect(landing.status == 200, "\(link) answered \(landing.status)")
          #expect(landing.shows(postID: String(postID)), "\(link) opened \(landing.url), without post \(postID)")
        }
      }
    }

  }
}
