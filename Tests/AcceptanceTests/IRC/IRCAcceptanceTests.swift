import AwfulBotTestKit
import BotCore
import ChatBridge
import FakeForum
import Foundation
import Testing

@testable import IRCTransport

/// What people on IRC read: the whole bot on InspIRCd + Atheme against the forum emulator, used by a plain user, a
/// channel operator and the admin the config names (`IRCAcceptanceChannel`). Every command of the README's table
/// with good and bad arguments, relays of every kind of post in both relay styles, each link followed to the page it
/// opens, and the order posts arrive in. Transcripts are the lines a person sees, as their client shows them.
extension IRCLiveTests {
  @Suite("acceptance: what IRC users read", .serialized)
  struct IRCAcceptance {
    enum Who: Sendable { case plain, op, admin }

    static func client(_ who: Who, in room: IRCAcceptanceChannel) -> IRCTestClient {
      switch who {
      case .plain: room.plain
      case .op: room.op
      case .admin: room.admin
      }
    }

    /// Runs a script: each line said in the channel by its speaker (`BOT` is the bot's nick, `FORUM` the forum's
    /// address), the answers read as the speaker reads them, known wording problems recorded and put right.
    static func transcript(_ script: [(Who, String)], in room: IRCAcceptanceChannel) async throws -> [String] {
      var lines: [String] = []
      for (who, text) in script {
        lines += try await room.say(text, as: client(who, in: room))
      }
      return lines
    }

    // MARK: Commands

    /// A plain user: every reading command with good and bad arguments, addressed three ways, and the changing
    /// commands refused.
    static let plainScript: [(Who, String)] = [
      (.plain, "!help"), (.plain, "!help watch"), (.plain, "!help nonsense"), (.plain, "!helpp"),
      (.plain, "!bookmarks"), (.plain, "!bookmarks 99"), (.plain, "!bookmarks sideways"),
      (.plain, "!forums"), (.plain, "!forums cobol"), (.plain, "!forums nothinglikethis"),
      (.plain, "!threads 202"), (.plain, "!threads 202 9"), (.plain, "!threads 99999"), (.plain, "!threads"),
      (.plain, "!latest 3600002 2"), (.plain, "!latest 99999999"), (.plain, "!latest 3600002 zero"),
      (.plain, "!subscriptions"), (.plain, "!status"),
      (.plain, "!why 3600001"), (.plain, "!why 400000001"), (.plain, "!why"),
      (.plain, "!alerts"),
      (.plain, "BOT: help why"), (.plain, "BOT, forums cobol"),
      (.plain, "!watch 3600005"), (.plain, "!unfurl off"), (.plain, "!reply 3600001 hi"),
    ]

    static let plainExpected = [
      "<plain> !help",
      "<awfulbot> 36 commands (you are a viewer):",
      "<awfulbot> Viewer (14): help, bookmarks, subscriptions, forums, threads, latest, search, lepers, confirm, cancel, re, status, why, alerts",
      "<awfulbot> Member (15, not for you): bookmark, unbookmark, undo, watch, unwatch, subscribe, unsubscribe, quiet, mode, pause, resume, pictures, editnotices, alert, unalert",
      "<awfulbot> Admin (7, not for you): reply, pms, pm, pmreply, unfurl, replies, reactions",
      "<awfulbot> !help <command> explains one; !help all lists them all with their usage.",
      "<plain> !help watch",
      "<awfulbot> !watch <thread> [--op-only] [--author X] [--not-author X] [--keyword K] [--backfill N] — Relay a thread's new posts here (also bookmarks it on the forum).",
      "<awfulbot> Needs the member role (you are a viewer).",
      "<plain> !help nonsense",
      "<awfulbot> There is no command “nonsense”; !help lists them.",
      "<plain> !helpp",
      "<awfulbot> Unknown command “helpp”. Did you mean !help? !help lists the commands.",
      "<plain> !bookmarks",
      "<awfulbot> Bookmarks, page 1 of 1:",
      "<awfulbot> • Québec politics thread: «débat» 🍁 (3600002) — red, 2 unread, 3 replies, last by Majuju 2024-01-18 00:00 UTC https://forum.example/showthread.php?threadid=3600002&perpage=40",
      "<awfulbot> • AwfulBot development thread: bridging the forums and chat (3600001) — orange, 45 unread, 94 replies, last by Zoë Québec 2024-01-17 22:35 UTC https://forum.example/showthread.php?threadid=3600001&perpage=40",
      "<awfulbot> • Post your desk 📷 (3600003) — orange, 1 reply, last by Zoë Québec 2024-01-16 03:00 UTC https://forum.example/showthread.php?threadid=3600003&perpage=40",
      "<awfulbot> • This thread is closed (3600004) — closed, red, 1 reply, last by Pickled Tink 2024-01-15 13:00 UTC https://forum.example/showthread.php?threadid=3600004&perpage=40",
      "<plain> !bookmarks 99",
      "<awfulbot> The bookmarks have 1 page; there is no page 99.",
      "<plain> !bookmarks sideways",
      "<awfulbot> “sideways” is neither a page number nor unread/recent. Usage: !bookmarks [page] [unread|recent]",
      "<plain> !forums",
      "<awfulbot> Forums (4):",
      "<awfulbot> • General Bullshit (273) https://forum.example/forumdisplay.php?forumid=273",
      "<awfulbot> • The Cholesterol Clubhouse (669) https://forum.example/forumdisplay.php?forumid=669",
      "<awfulbot> • Debate & Discussion (46) https://forum.example/forumdisplay.php?forumid=46",
      "<awfulbot> • The Cavern of COBOL (202) https://forum.example/forumdisplay.php?forumid=202",
      "<plain> !forums cobol",
      "<awfulbot> Forums matching “cobol” (1):",
      "<awfulbot> • The Cavern of COBOL (202) https://forum.example/forumdisplay.php?forumid=202",
      "<plain> !forums nothinglikethis",
      "<awfulbot> No forum matches “nothinglikethis”.",
      "<plain> !threads 202",
      "<awfulbot> The Cavern of COBOL, page 1 of 1:",
      "<awfulbot> • AwfulBot development thread: bridging the forums and chat (3600001) — orange, 45 unread, 94 replies, last by Zoë Québec 2024-01-17 22:35 UTC https://forum.example/showthread.php?threadid=3600001&perpage=40",
      "<plain> !threads 202 9",
      "<awfulbot> The Cavern of COBOL has 1 page; there is no page 9.",
      "<plain> !threads 99999",
      "<awfulbot> No forum has the id 99999; !forums lists them.",
      "<plain> !threads",
      "<awfulbot> Usage: !threads <forum> [page]",
      "<plain> !latest 3600002 2",
      "<awfulbot> “Québec politics thread: «débat» 🍁” — last 2 posts: https://forum.example/showthread.php?threadid=3600002&perpage=40",
      "<awfulbot> • angerbot, 2024-01-15 16:20 UTC:",
      "<awfulbot>   > Pickled Tink posted:",
      "<awfulbot>   > A news link about the election.",
      "<awfulbot>   Please stay on topic. [spoiler]",
      "<awfulbot>   https://forum.example/showthread.php?threadid=3600002&perpage=40&pagenumber=1#post400000097",
      "<awfulbot> • Majuju, 2024-01-18 00:00 UTC:",
      "<awfulbot>   日本語のテキストも大丈夫です。 🇨🇦",
      "<awfulbot>   https://forum.example/showthread.php?threadid=3600002&perpage=40&pagenumber=1#post400000098",
      "<plain> !latest 99999999",
      "<awfulbot> No such thread on the forum, or the bot's forum account cannot see it.",
      "<plain> !latest 3600002 zero",
      "<awfulbot> The number of posts must be from 1 to 10. Usage: !latest <thread> [n]",
      "<plain> !subscriptions",
      "<awfulbot> This room follows:",
      "<awfulbot> • all bookmarks",
      "<awfulbot> • announcements",
      "<plain> !status",
      "<awfulbot> Mode: each post · quiet: off · unfurl: on",
      "<awfulbot> Follows: all bookmarks; announcements",
      "<awfulbot> Messages: 0 waiting, 18 delivered, 0 held, 0 refused, 0 given up",
      "<awfulbot> Polling announcements: ok, last ‹now›",
      "<awfulbot> Polling bookmarks: ok, last ‹now›",
      "<plain> !why 3600001",
      "<awfulbot> 3600001 is the thread “AwfulBot development thread: bridging the forums and chat”, not a post. !why needs a post: a link ending in #post123, or that number. Usage: !why <post link | post id>",
      "<plain> !why 400000001",
      "<awfulbot> Post 400000001 was not sent here: nothing about it was queued for this room. It may have been posted before the room subscribed (subscribing starts after the current last post), filtered out by the subscription's filters, or the thread is not one the room follows.",
      "<plain> !why",
      "<awfulbot> Usage: !why <post link | post id>",
      "<plain> !alerts",
      "<awfulbot> This room has no alerts.",
      "<plain> awfulbot: help why",
      "<awfulbot> !why <post link | post id> — Whether a post was relayed here, when, or why not.",
      "<awfulbot> Needs the viewer role (you are a viewer).",
      "<plain> awfulbot, forums cobol",
      "<awfulbot> Forums matching “cobol” (1):",
      "<awfulbot> • The Cavern of COBOL (202) https://forum.example/forumdisplay.php?forumid=202",
      "<plain> !watch 3600005",
      "<awfulbot> “watch” needs the member role; you are a viewer.",
      "<plain> !unfurl off",
      "<awfulbot> “unfurl” needs the admin role; you are a viewer.",
      "<plain> !reply 3600001 hi",
      "<awfulbot> “reply” needs the admin role; you are a viewer.",
      "<plain> (private to awfulbot) bookmarks 99",
      "<awfulbot> (private) The bookmarks have 1 page; there is no page 99.",
    ]

    @Test("a plain user: reading commands answer completely, counts match the lists, changes are refused")
    func plainUser() async throws {
      try await IRCAcceptanceChannel.with { room in
        var transcript = try await Self.transcript(Self.plainScript, in: room)
        transcript += try await room.whisper("bookmarks 99", as: room.plain)
        expectTranscript(transcript, Self.plainExpected, "a plain user's transcript")

        // `help` names every command of the README's table, one line per role, and the counts it states are the
        // names it lists.
        let help = try await room.say("!help", as: room.plain).dropFirst()
        let readme = try Repository.readmeCommands()
        var named: [String] = []
        for line in help {
          guard let match = line.firstMatch(of: /^<awfulbot> \w+ \((\d+)[^)]*\): (.*)$/) else { continue }
          let names = match.output.2.components(separatedBy: ", ")
          #expect(Int(match.output.1) == names.count, "\(line)")
          named += names
        }
        #expect(Set(named) == readme, "help names \(named.sorted()); the README's table \(readme.sorted())")
        #expect(help.first == "<awfulbot> \(readme.count) commands (you are a viewer):")

        // `help all`: every command with its usage, nothing cut.
        let all = try await room.say("!help all", as: room.plain).dropFirst()
        #expect(all.first?.hasPrefix("<awfulbot> All \(readme.count) commands") == true, "\(all.first ?? "")")
        #expect(all.filter { $0.hasPrefix("<awfulbot> • !") }.count == readme.count, "\(all.joined(separator: "\n"))")

        // Bookmarks: as many as the emulator has, on the one page the answer announces.
        let bookmarks = try await room.say("!bookmarks", as: room.plain).dropFirst()
        let held = await room.forum.state.bookmarks(user: FakeForumSeed.botUserID).count
        #expect(bookmarks.first == "<awfulbot> Bookmarks, page 1 of 1:")
        #expect(bookmarks.filter { $0.hasPrefix("<awfulbot> • ") }.count == held)

        // Forums: the count stated is the number listed.
        let forums = try await room.say("!forums", as: room.plain).dropFirst()
        let listed = forums.filter { $0.hasPrefix("<awfulbot> • ") }.count
        #expect(forums.first == "<awfulbot> Forums (\(listed)):")

        // The post links `latest` gives open the page that holds each post.
        try await Self.expectLinksLand(in: Array(try await room.say("!latest 3600001 3", as: room.plain)), room)
      }
    }

    @Test("a long answer arrives whole: 49 bookmarks over two pages, each page saying how many there are")
    func bookmarksOverTwoPages() async throws {
      try await IRCAcceptanceChannel.with { room in
        for number in 1...45 {
          let thread = try await room.forumAdmin.addThread(
            forum: 273, title: "Extra thread \(number)", author: "Pickled Tink", body: "Thread number \(number).")
          try await room.forumAdmin.addBookmark(user: FakeForumSeed.botUsername, thread: thread.thread, star: "cyan")
        }
        let held = await room.forum.state.bookmarks(user: FakeForumSeed.botUserID).count
        #expect(held == 49)
        let first = try await room.say("!bookmarks", as: room.plain)
        let second = try await room.say("!bookmarks 2", as: room.plain)
        let past = try await room.say("!bookmarks 3", as: room.plain)
        let items = (first + second).filter { $0.hasPrefix("<awfulbot> • ") }
        #expect(first.filter { $0.hasPrefix("<awfulbot> • ") }.count == 40)
        #expect(items.count == held, "every bookmark listed once over the two pages")
        #expect(Set(items).count == items.count)
        #expect(first[1] == "<awfulbot> Bookmarks, page 1 of 2:")
        #expect(second[1] == "<awfulbot> Bookmarks, page 2 of 2:")
        #expect(past == ["<plain> !bookmarks 3", "<awfulbot> The bookmarks have 2 pages; there is no page 3."])
        // Page 1 of 2 says how to see page 2.
        #expect(first.last == "<awfulbot> !bookmarks 2 shows the next page.")
        #expect(second.last?.hasPrefix("<awfulbot> • ") == true, "the last page has no next-page hint")
      }
    }

    /// A channel operator: every changing command with good and bad arguments.
    static let opScript: [(Who, String)] = [
      (.op, "!help mode"),
      (.op, "!watch 99999999"), (.op, "!watch 3600005 --sideways"), (.op, "!watch 3600005"), (.op, "!subscriptions"),
      (.op, "!unwatch 3600005"), (.op, "!unwatch 99999999"),
      (.op, "!bookmark 3600005 green"), (.op, "!bookmark 3600005 mauve"), (.op, "!bookmark 99999999"),
      (.op, "!undo"), (.op, "!undo"),
      (.op, "!bookmark 3600005"), (.op, "!unbookmark 3600005"), (.op, "!unbookmark 99999999"),
      (.op, "!subscribe"), (.op, "!unsubscribe announcements"), (.op, "!unsubscribe announcements"),
      (.op, "!subscribe announcements"), (.op, "!subscribe bookmarks red"), (.op, "!subscribe forum 99999"),
      (.op, "!subscriptions"),
      (.op, "!mode summary 2"), (.op, "!mode each"), (.op, "!mode sideways"),
      (.op, "!quiet 22:00-07:00"), (.op, "!quiet off"), (.op, "!quiet sideways"),
      (.op, "!pause"), (.op, "!resume"), (.op, "!resume"),
      (.op, "!alert Zoë Québec"), (.op, "!alerts"), (.op, "!unalert Nobody"), (.op, "!unalert Zoë Québec"),
      (.op, "!alerts"),
    ]

    static let opExpected = [
      "<op> !help mode",
      "<awfulbot> !mode each | summary [K] | digest hourly | digest daily HH:MM — Relay every post, summarise busy threads, or send digests.",
      "<awfulbot> Needs the member role (you are an admin).",
      "<op> !watch 99999999",
      "<awfulbot> No such thread on the forum, or the bot's forum account cannot see it.",
      "<op> !watch 3600005 --sideways",
      "<awfulbot> Unknown option --sideways. Usage: !watch <thread> [--op-only] [--author X] [--not-author X] [--keyword K] [--backfill N]",
      "<op> !watch 3600005",
      "<awfulbot> Watching “What did you eat today?”: new posts will appear here. https://forum.example/showthread.php?threadid=3600005&perpage=40",
      "<awfulbot> The thread was bookmarked on the forum so the bot sees new posts.",
      "<op> !subscriptions",
      "<awfulbot> This room follows:",
      "<awfulbot> • all bookmarks",
      "<awfulbot> • announcements",
      "<awfulbot> • thread 3600005 https://forum.example/showthread.php?threadid=3600005&perpage=40",
      "<op> !unwatch 3600005",
      "<awfulbot> Stopped watching thread 3600005 here and removed the bookmark the bot had added.",
      "<op> !unwatch 99999999",
      "<awfulbot> This room is not watching thread 99999999.",
      "<op> !bookmark 3600005 green",
      "<awfulbot> Bookmarked “What did you eat today?” (green). !undo reverts it. https://forum.example/showthread.php?threadid=3600005&perpage=40",
      "<op> !bookmark 3600005 mauve",
      "<awfulbot> Unknown colour “mauve”; use one of orange, red, yellow, cyan, green, purple. Usage: !bookmark <thread> [colour]",
      "<op> !bookmark 99999999",
      "<awfulbot> No such thread on the forum, or the bot's forum account cannot see it.",
      "<op> !undo",
      "<awfulbot> Undone: bookmarked “What did you eat today?” (green).",
      "<op> !undo",
      "<awfulbot> Undone: unwatched thread 3600005.",
      "<op> !bookmark 3600005",
      "<awfulbot> “What did you eat today?” was already bookmarked. https://forum.example/showthread.php?threadid=3600005&perpage=40",
      "<op> !unbookmark 3600005",
      "<awfulbot> “What did you eat today?” stays bookmarked: this room watches it, and a watch needs the bookmark to see new posts. Use !unwatch 3600005 here first.",
      "<op> !unbookmark 99999999",
      "<awfulbot> No such thread on the forum, or the bot's forum account cannot see it.",
      "<op> !subscribe",
      "<awfulbot> Usage: !subscribe bookmarks [colour…] | announcements | lepers | forum <forum> [--backfill N]",
      "<op> !unsubscribe announcements",
      "<awfulbot> Unsubscribed this room from announcements.",
      "<op> !unsubscribe announcements",
      "<awfulbot> This room is not subscribed to announcements.",
      "<op> !subscribe announcements",
      "<awfulbot> Subscribed this room to announcements.",
      "<op> !subscribe bookmarks red",
      "<awfulbot> Subscribed this room to bookmarks starred red.",
      "<op> !subscribe forum 99999",
      "<awfulbot> No forum has the id 99999; !forums lists them.",
      "<op> !subscriptions",
      "<awfulbot> This room follows:",
      "<awfulbot> • all bookmarks",
      "<awfulbot> • thread 3600005 https://forum.example/showthread.php?threadid=3600005&perpage=40",
      "<awfulbot> • announcements",
      "<awfulbot> • bookmarks starred red",
      "<op> !mode summary 2",
      "<awfulbot> Mode set: summary (more than 2 new posts in a thread become one message).",
      "<op> !mode each",
      "<awfulbot> Mode set: each post.",
      "<op> !mode sideways",
      "<awfulbot> Usage: !mode each | summary [K] | digest hourly | digest daily HH:MM",
      "<op> !quiet 22:00-07:00",
      "<awfulbot> Quiet hours set: daily 22:00–07:00 (UTC).",
      "<op> !quiet off",
      "<awfulbot> Quiet hours are off; held posts will be sent now.",
      "<op> !quiet sideways",
      "<awfulbot> Quiet hours look like 23:00-07:30. Usage: !quiet <HH:MM-HH:MM> | off | for <duration>",
      "<op> !pause",
      "<awfulbot> Paused: new posts are held for this room until !resume.",
      "<op> !resume",
      "<awfulbot> Resumed: posts held while paused arrive as one digest; new posts are relayed as before.",
      "<op> !resume",
      "<awfulbot> This room is not paused.",
      "<op> !alert Zoë Québec",
      "<awfulbot> This room will hear when Zoë Québec is quoted or mentioned.",
      "<op> !alerts",
      "<awfulbot> Alerts: Zoë Québec.",
      "<op> !unalert Nobody",
      "<awfulbot> This room has no alert on Nobody.",
      "<op> !unalert Zoë Québec",
      "<awfulbot> Stopped the alert on Zoë Québec.",
      "<op> !alerts",
      "<awfulbot> This room has no alerts.",
    ]

    @Test("a channel operator: changing commands do what they say, bad arguments say what is wrong")
    func channelOperator() async throws {
      try await IRCAcceptanceChannel.with { room in
        let transcript = try await Self.transcript(Self.opScript, in: room)
        expectTranscript(transcript, Self.opExpected, "a channel operator's transcript")
        // What the answers said happened on the forum: the watched thread kept its bookmark.
        #expect(await room.forum.state.bookmarks(user: FakeForumSeed.botUserID)[3_600_005] != nil)

        // So a new post in the watched thread still arrives.
        _ = try await room.forumAdmin.addPost(thread: 3_600_005, author: "Zoë Québec", body: "Still watched?")
        let mark = await room.op.mark()
        await room.poll()
        let relayed = try await room.botLines(
          seenBy: room.op, from: mark, atLeast: 1, quiet: .seconds(1), what: "a relay")
        #expect(
          relayed.count == 1, "a post in the watched thread 3600005 after !unbookmark: \(relayed.map(room.shown))")
      }
    }

    /// The admin the config names (by services account): posting as the bot, unfurling.
    static let adminScript: [(Who, String)] = [
      (.admin, "!help"),
      (.admin, "!reply 3600001 hello there"), (.admin, "!cancel"), (.admin, "!cancel"), (.admin, "!confirm"),
      (.admin, "!reply 99999999 hello"), (.admin, "!reply 3600004 too late"), (.admin, "!reply 3600001"),
      (.admin, "!unfurl off"),
    ]

    /// After a forum link pasted with unfurling off (no answer), unfurling on again and a reply posted.
    static let adminScriptAfterPaste: [(Who, String)] = [
      (.admin, "!unfurl on"), (.admin, "!unfurl sideways"),
      (.plain, "look at FORUM/showthread.php?threadid=3600001&perpage=40&pagenumber=3#post400000094"),
      (.plain, "and FORUM/showthread.php?threadid=3600002"),
      (.admin, "!reply 3600003 Posted from IRC, ünïcödé 🎉"), (.admin, "!confirm"),
    ]

    static let adminExpected = [
      "<admin> !help",
      "<awfulbot> 36 commands (you are an admin):",
      "<awfulbot> Viewer (14): help, bookmarks, subscriptions, forums, threads, latest, search, lepers, confirm, cancel, re, status, why, alerts",
      "<awfulbot> Member (15): bookmark, unbookmark, undo, watch, unwatch, subscribe, unsubscribe, quiet, mode, pause, resume, pictures, editnotices, alert, unalert",
      "<awfulbot> Admin (7): reply, pms, pm, pmreply, unfurl, replies, reactions",
      "<awfulbot> !help <command> explains one; !help all lists them all with their usage.",
      "<admin> !reply 3600001 hello there",
      "<awfulbot> Reply to “AwfulBot development thread: bridging the forums and chat” as the bot account: https://forum.example/showthread.php?threadid=3600001&perpage=40",
      "<awfulbot> > hello there",
      "<awfulbot> Say !confirm within 2 minutes to post it, or !cancel.",
      "<admin> !cancel",
      "<awfulbot> Dropped the reply; nothing was posted.",
      "<admin> !cancel",
      "<awfulbot> There is no reply waiting for confirmation.",
      "<admin> !confirm",
      "<awfulbot> Nothing to confirm: start with !reply <thread> <text>.",
      "<admin> !reply 99999999 hello",
      "<awfulbot> No such thread on the forum, or the bot's forum account cannot see it.",
      "<admin> !reply 3600004 too late",
      "<awfulbot> “This thread is closed” is closed; it takes no replies.",
      "<admin> !reply 3600001",
      "<awfulbot> The reply text is empty. Usage: !reply <thread> <text>",
      "<admin> !unfurl off",
      "<awfulbot> Forum links will no longer be unfurled.",
      "<plain> look at https://forum.example/showthread.php?threadid=3600001&perpage=40&pagenumber=3",
      "<admin> !unfurl on",
      "<awfulbot> Forum links pasted here will be unfurled.",
      "<admin> !unfurl sideways",
      "<awfulbot> Usage: !unfurl on | off",
      "<plain> look at https://forum.example/showthread.php?threadid=3600001&perpage=40&pagenumber=3#post400000094",
      "<awfulbot> The Cavern of COBOL › AwfulBot development thread: bridging the forums and chat, page 3 of 3, post by Zoë Québec (2024-01-17 22:35 UTC)",
      "<plain> and https://forum.example/showthread.php?threadid=3600002",
      "<awfulbot> Debate & Discussion › Québec politics thread: «débat» 🍁, page 1 of 1, started by Zoë Québec",
      "<admin> !reply 3600003 Posted from IRC, ünïcödé 🎉",
      "<awfulbot> Reply to “Post your desk 📷” as the bot account: https://forum.example/showthread.php?threadid=3600003&perpage=40",
      "<awfulbot> > Posted from IRC, ünïcödé 🎉",
      "<awfulbot> Say !confirm within 2 minutes to post it, or !cancel.",
      "<admin> !confirm",
      "<awfulbot> Posted to “Post your desk 📷”. https://forum.example/showthread.php?threadid=3600003&perpage=40&pagenumber=1#post400000105",
      "(the bot polls the forum: its own post is not relayed back to the channel that posted it)",
    ]

    @Test("the configured admin: a reply previewed, cancelled, then posted; unfurling off and on")
    func configuredAdmin() async throws {
      try await IRCAcceptanceChannel.with { room in
        var transcript = try await Self.transcript(Self.adminScript, in: room)
        transcript += try await room.say(
          "look at FORUM/showthread.php?threadid=3600001&perpage=40&pagenumber=3", as: room.plain, answered: false)
        transcript += try await Self.transcript(Self.adminScriptAfterPaste, in: room)
        // The next poll finds the bot's own reply but does not relay it back here: the channel read it in the
        // preview and in "Posted to" (another room following the thread gets it, as any new post).
        transcript.append("(the bot polls the forum: its own post is not relayed back to the channel that posted it)")
        let afterPosting = await room.admin.mark()
        await room.poll()
        try await room.settled(for: room.admin)
        transcript += await room.admin.lines[afterPosting...].filter(room.isFromBot).map(room.shown)
        expectTranscript(transcript, Self.adminExpected, "the admin's transcript")

        // The reply is on the forum, and the link in "Posted to …" opens the page that holds it.
        let posted = try #require(await room.forum.state.thread(3_600_003)?.postIDs.last)
        let post = await room.forum.state.post(posted)
        #expect(post?.body == .bbcode("Posted from IRC, ünïcödé 🎉") && post?.authorID == FakeForumSeed.botUserID)
        try await Self.expectLinksLand(in: transcript.filter { $0.contains("Posted to") }, room)
      }
    }

    // MARK: Relays

    static let longWords = (1...150).map { "word\($0)" }.joined(separator: " ")

    /// Posts holding each kind of content, made through the emulator's admin API in this order: thread, author,
    /// BBCode. Thread 3600001 has 95 posts already, so its new posts are on page 3; the others are on page 1.
    static let contentPosts: [(thread: Int, author: String, body: String)] = [
      (
        3_600_001, "Pickled Tink",
        "[quote=\"angerbot\" post=\"400000094\"]\nPlease stay on topic.\n[/quote]\nI will, promise."
      ),
      (
        3_600_002, "Zoë Québec",
        "[quote=\"Majuju\"]\n[quote=\"angerbot\"]\ninner words\n[/quote]\nouter words\n[/quote]"
      ),
      (
        3_600_001, "Majuju",
        "[quote=\"Zoë Québec\"]\n\(longWords)\n[/quote]\nThis is my answer, after a long quote."
      ),
      (3_600_003, "angerbot", "Look: [img]https://i.example.com/cat.png[/img], and this one:"),
      (3_600_001, "Zoë Québec", "[timg]https://i.example.com/big.jpg[/timg]"),
      (
        3_600_002, "Pickled Tink",
        "[url=https://example.com/news]The news[/url] and https://example.com/bare too."
      ),
      (3_600_001, "angerbot", "The ending: [spoiler]the butler did it[/spoiler]. Wow."),
      (3_600_003, "Majuju", "[code]\nlet x = 1\nprint(x)\n[/code]\nThat prints 1."),
      (3_600_001, "Pickled Tink", "Ünïcödé 日本語 😀 — ça va? Привет, мир! مرحبا @room"),
      (3_600_002, "Zoë Québec", (1...120).map { "mot\($0) 日本 🎉" }.joined(separator: " ")),
    ]

    /// What the compact style (the default) shows for `contentPosts`, whose ids are `ids`.
    static func compactExpected(_ ids: [Int]) -> [String] {
      [
        "-awfulbot- r1 [AwfulBot development thread: bridging the forums and chat] Pickled Tink, replying to angerbot: I will, promise. https://forum.example/showthread.php?threadid=3600001&perpage=40&pagenumber=3#post\(ids[0])",
        "-awfulbot- r2 [Québec politics thread: «débat» 🍁] Zoë Québec quoted Majuju: “outer words…” https://forum.example/showthread.php?threadid=3600002&perpage=40&pagenumber=1#post\(ids[1])",
        "-awfulbot- r3 [AwfulBot development thread: bridging the forums and chat] Majuju, replying to Zoë Québec: This is my answer, after a long quote. https://forum.example/showthread.php?threadid=3600001&perpage=40&pagenumber=3#post\(ids[2])",
        "-awfulbot- r4 [Post your desk 📷] angerbot: Look: [image] https://i.example.com/cat.png, and this one: https://forum.example/showthread.php?threadid=3600003&perpage=40&pagenumber=1#post\(ids[3])",
        "-awfulbot- r5 [AwfulBot development thread: bridging the forums and chat] Zoë Québec: [image] https://i.example.com/big.jpg https://forum.example/showthread.php?threadid=3600001&perpage=40&pagenumber=3#post\(ids[4])",
        "-awfulbot- r6 [Québec politics thread: «débat» 🍁] Pickled Tink: The news (https://example.com/news) and https://example.com/bare too. https://forum.example/showthread.php?threadid=3600002&perpage=40&pagenumber=1#post\(ids[5])",
        "-awfulbot- r7 [AwfulBot development thread: bridging the forums and chat] angerbot: The ending: [spoiler]. Wow. https://forum.example/showthread.php?threadid=3600001&perpage=40&pagenumber=3#post\(ids[6])",
        "-awfulbot- r8 [Post your desk 📷] Majuju: `let x = 1 ⏎ print(x)` That prints 1. https://forum.example/showthread.php?threadid=3600003&perpage=40&pagenumber=1#post\(ids[7])",
        "-awfulbot- r9 [AwfulBot development thread: bridging the forums and chat] Pickled Tink: Ünïcödé 日本語 😀 — ça va? Привет, мир! مرحبا @⁠room https://forum.example/showthread.php?threadid=3600001&perpage=40&pagenumber=3#post\(ids[8])",
        "-awfulbot- r10 [Québec politics thread: «débat» 🍁] Zoë Québec: mot1 日本 🎉 mot2 日本 🎉 mot3 日本 🎉 mot4 日本 🎉 mot5 日本 🎉 mot6 日本 🎉 mot7 日本 🎉 mot8 日本 🎉 mot9 日本 🎉 mot10 日本 🎉 mot11 日本 🎉 mot12 日本 🎉 mot13 日本 🎉 mot14 日本 🎉 mot15 日本 🎉 mot16 日本 🎉 mot17 日本 🎉… https://forum.example/showthread.php?threadid=3600002&perpage=40&pagenumber=1#post\(ids[9])",
      ]
    }

    /// What `relayStyle: full` shows for `contentPosts` (at most 4 lines a post, the default `linesPerMessage`).
    static func fullExpected(_ ids: [Int]) -> [String] {
      [
        "-awfulbot- r1 AwfulBot development thread: bridging the forums and chat — Pickled Tink, ‹now›",
        "-awfulbot- > angerbot posted: Please stay on topic.",
        "-awfulbot- I will, promise.",
        "-awfulbot- https://forum.example/showthread.php?threadid=3600001&perpage=40&pagenumber=3#post\(ids[0])",
        "-awfulbot- r2 Québec politics thread: «débat» 🍁 — Zoë Québec, ‹now›",
        "-awfulbot- > Majuju posted: outer words …",
        "-awfulbot- (only a quote, no words of their own)",
        "-awfulbot- https://forum.example/showthread.php?threadid=3600002&perpage=40&pagenumber=1#post\(ids[1])",
        "-awfulbot- r3 AwfulBot development thread: bridging the forums and chat — Majuju, ‹now›",
        "-awfulbot- > Zoë Québec posted: word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12…",
        "-awfulbot- This is my answer, after a long quote.",
        "-awfulbot- https://forum.example/showthread.php?threadid=3600001&perpage=40&pagenumber=3#post\(ids[2])",
        "-awfulbot- r4 Post your desk 📷 — angerbot, ‹now›",
        "-awfulbot- Look: [image] https://i.example.com/cat.png, and this one:",
        "-awfulbot- https://forum.example/showthread.php?threadid=3600003&perpage=40&pagenumber=1#post\(ids[3])",
        "-awfulbot- r5 AwfulBot development thread: bridging the forums and chat — Zoë Québec, ‹now›",
        "-awfulbot- [image] https://i.example.com/big.jpg",
        "-awfulbot- https://forum.example/showthread.php?threadid=3600001&perpage=40&pagenumber=3#post\(ids[4])",
        "-awfulbot- r6 Québec politics thread: «débat» 🍁 — Pickled Tink, ‹now›",
        "-awfulbot- The news (https://example.com/news) and https://example.com/bare too.",
        "-awfulbot- https://forum.example/showthread.php?threadid=3600002&perpage=40&pagenumber=1#post\(ids[5])",
        "-awfulbot- r7 AwfulBot development thread: bridging the forums and chat — angerbot, ‹now›",
        "-awfulbot- The ending: [spoiler]. Wow.",
        "-awfulbot- https://forum.example/showthread.php?threadid=3600001&perpage=40&pagenumber=3#post\(ids[6])",
        "-awfulbot- r8 Post your desk 📷 — Majuju, ‹now›",
        "-awfulbot- let x = 1",
        "-awfulbot- print(x) …",
        "-awfulbot- https://forum.example/showthread.php?threadid=3600003&perpage=40&pagenumber=1#post\(ids[7])",
        "-awfulbot- r9 AwfulBot development thread: bridging the forums and chat — Pickled Tink, ‹now›",
        "-awfulbot- Ünïcödé 日本語 😀 — ça va? Привет, мир! مرحبا @⁠room",
        "-awfulbot- https://forum.example/showthread.php?threadid=3600001&perpage=40&pagenumber=3#post\(ids[8])",
        "-awfulbot- r10 Québec politics thread: «débat» 🍁 — Zoë Québec, ‹now›",
        "-awfulbot- mot1 日本 🎉 mot2 日本 🎉 mot3 日本 🎉 mot4 日本 🎉 mot5 日本 🎉 mot6 日本 🎉 mot7 日本 🎉 mot8 日本 🎉 mot9 日本 🎉 mot10 日本 🎉 mot11 日本 🎉 mot12 日本 🎉 mot13 日本 🎉 mot14 日本 🎉 mot15 日本 🎉 mot16 日本 🎉 mot17 日本 🎉 mot18 日本 🎉 mot19 日本 🎉 mot20 日本 🎉 mot21 日本 🎉 mot22 日本 🎉 mot23 日本 🎉 mot24 日本 🎉 mot25 日本 🎉 mot26 ",
        "-awfulbot- 日本 🎉 mot27 日本 🎉 mot28 日本 🎉 mot29 日本 🎉 mot30 日本 🎉 mot31 日本 🎉 mot32 日本 🎉 mot33 日本 🎉 mot34 日本 🎉 mot35 日本 🎉 mot36 日本 🎉 mot37 日本 🎉…",
        "-awfulbot- https://forum.example/showthread.php?threadid=3600002&perpage=40&pagenumber=1#post\(ids[9])",
      ]
    }

    @Test(
      "relays of every kind of post read right, fit IRC's 512 bytes, and every link opens the page with its post",
      arguments: [IRCRenderer.RelayStyle.compact, .full])
    func relays(style: IRCRenderer.RelayStyle) async throws {
      try await IRCAcceptanceChannel.with(relayStyle: style) { room in
        var ids: [Int] = []
        for post in Self.contentPosts {
          ids.append(try await room.forumAdmin.addPost(thread: post.thread, author: post.author, body: post.body))
        }
        let lines = try await room.pollAndRead(ids.count * (style == .compact ? 1 : 3), reader: room.plain)
        let transcript = lines.map(room.shown)
        expectTranscript(
          transcript, style == .compact ? Self.compactExpected(ids) : Self.fullExpected(ids),
          "relays in the \(style) style")

        // Every line within IRC's limit (CR LF included), as NOTICE, with nothing a client would read as formatting.
        for line in lines {
          #expect(line.wireBytes <= 512, "\(line.wireBytes) bytes: \(line.raw)")
          #expect(line.command == "NOTICE")
          #expect(!line.text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(line.raw)")
        }
        // One link per post, in the order the posts were made, each opening the page that holds its post.
        let links = transcript.compactMap { $0.firstMatch(of: /#post(\d+)$/).map { Int($0.output.1) } }
        #expect(links == ids)
        try await Self.expectLinksLand(in: transcript, room)

        // `why` for a relayed post says it was delivered here.
        let why = try await room.say(
          "!why FORUM/showthread.php?threadid=3600001&perpage=40&pagenumber=3#post\(ids[2])", as: room.plain)
        expectTranscript(
          why,
          [
            "<plain> !why https://forum.example/showthread.php?threadid=3600001&perpage=40&pagenumber=3#post\(ids[2])",
            "<awfulbot> Post \(ids[2]) in “AwfulBot development thread: bridging the forums and chat”:",
            "<awfulbot> • post for all bookmarks: delivered, queued ‹now›, delivered ‹now›",
          ], "why for a relayed post")
      }
    }

    @Test("a channel that asked for edit notices reads one line when a relayed post is edited; deletions say nothing")
    func editNotices() async throws {
      try await IRCAcceptanceChannel.with(editNotices: true) { room in
        let edited = try await room.forumAdmin.addPost(thread: 3_600_002, author: "Majuju", body: "Firts draft.")
        let deleted = try await room.forumAdmin.addPost(thread: 3_600_002, author: "Majuju", body: "Not for long.")
        _ = try await room.pollAndRead(2, reader: room.plain)
        try await room.forumAdmin.editPost(edited, body: "First draft, spelled right.")
        let reply = try await room.forumAdmin.send("DELETE", "/_fake/posts/\(deleted)")
        #expect(reply.status == 200)
        for text in ["Newer.", "Newest."] {
          _ = try await room.forumAdmin.addPost(thread: 3_600_002, author: "Zoë Québec", body: text)
        }
        let transcript = try await room.pollAndRead(3, reader: room.plain).map(room.shown)
        let link = "https://forum.example/showthread.php?threadid=3600002&perpage=40&pagenumber=1#post"
        expectTranscript(
          transcript.filter { $0.contains("edited") || $0.contains("#post\(deleted)") },
          ["-awfulbot- [Québec politics thread: «débat» 🍁] Majuju edited their post: \(link)\(edited)"],
          "one line for the edit, nothing for the deletion")
        #expect(transcript.count == 3, "the edit line and the two new posts: \(transcript)")

        // The setting is the channel's own: a plain user may not change it, the operator may, and undo puts it back.
        let refused = try await room.say("!editnotices off", as: room.plain)
        #expect(refused.count == 2 && refused[1].contains("member"), "\(refused)")
        expectTranscript(
          try await room.say("!editnotices off", as: room.op),
          [
            "<op> !editnotices off",
            "<awfulbot> Edits on the forum will no longer be told here.",
          ], "edit notices off by command")
        try await room.forumAdmin.editPost(edited, body: "First draft, spelled right, twice.")
        _ = try await room.forumAdmin.addPost(thread: 3_600_002, author: "Majuju", body: "After the second edit.")
        let quiet = try await room.pollAndRead(1, reader: room.plain).map(room.shown)
        #expect(quiet.count == 1 && quiet[0].contains("After the second edit."), "no edit line now: \(quiet)")
        let undone = try await room.say("!undo", as: room.op)
        #expect(undone.last == "<awfulbot> Undone: turned edit notices off.", "\(undone)")
        let status = try await room.say("!status", as: room.plain)
        #expect(status.contains { $0.contains("edit notices: on") }, "\(status)")
      }
    }

    @Test("posts made in two threads before one poll arrive in the order they were made")
    func postingOrder() async throws {
      try await IRCAcceptanceChannel.with { room in
        let order: [(Int, String, String)] = [
          (3_600_002, "Zoë Québec", "first, in the Québec thread"),
          (3_600_001, "Pickled Tink", "second, in the development thread"),
          (3_600_002, "Majuju", "third, back in the Québec thread"),
          (3_600_001, "angerbot", "fourth, in the development thread again"),
        ]
        var ids: [Int] = []
        for (thread, author, body) in order {
          ids.append(try await room.forumAdmin.addPost(thread: thread, author: author, body: body))
        }
        let transcript = try await room.pollAndRead(order.count, reader: room.op).map(room.shown)
        expectTranscript(
          transcript,
          [
            "-awfulbot- r1 [Québec politics thread: «débat» 🍁] Zoë Québec: first, in the Québec thread https://forum.example/showthread.php?threadid=3600002&perpage=40&pagenumber=1#post\(ids[0])",
            "-awfulbot- r2 [AwfulBot development thread: bridging the forums and chat] Pickled Tink: second, in the development thread https://forum.example/showthread.php?threadid=3600001&perpage=40&pagenumber=3#post\(ids[1])",
            "-awfulbot- r3 [Québec politics thread: «débat» 🍁] Majuju: third, back in the Québec thread https://forum.example/showthread.php?threadid=3600002&perpage=40&pagenumber=1#post\(ids[2])",
            "-awfulbot- r4 [AwfulBot development thread: bridging the forums and chat] angerbot: fourth, in the development thread again https://forum.example/showthread.php?threadid=3600001&perpage=40&pagenumber=3#post\(ids[3])",
          ], "two threads, one poll")
      }
    }

    // MARK: Helpers

    /// Every forum post link in `lines` (`…#post123`), followed as a reader logged in to the forum would: each must
    /// open a page that holds its post.
    static func expectLinksLand(in lines: [String], _ room: IRCAcceptanceChannel) async throws {
      let links = lines.flatMap { line in
        line.split(separator: " ").map(String.init).filter {
          $0.hasPrefix(IRCAcceptanceChannel.forumHost) && $0.contains("#post")
        }
      }
      #expect(!links.isEmpty, "no post link in \(lines)")
      try await ForumLinkFollower.with(room.baseURL, username: "Pickled Tink", password: "pickles") { follower in
        for link in links {
          let postID = String(link.split(separator: "#post").last ?? "")
          let landing = try await follower.follow(
            link.replacingOccurrences(of: IRCAcceptanceChannel.forumHost, with: room.forumRoot))
          #expect(
            landing.status == 200 && landing.shows(postID: postID),
            "\(link) opened \(landing.url) without post \(postID)")
        }
      }
    }

  }
}
