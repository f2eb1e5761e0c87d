import AwfulBotEngineTestKit
import AwfulBotTestKit
import BotStore
import ChatBridge
import ForumModel
import Foundation
import Testing

@testable import BotCore

@Suite("Command router and handlers")
struct CommandRouterTests {
  @Test("help names every command, help all lists their usage, help <command> explains one")
  func help() async throws {
    let bot = try await CommandHarness()
    let names = await bot.say("!help", role: .viewer)
    for spec in CommandRegistry.all { #expect(names.contains(spec.name)) }
    #expect(names.contains("Admin (7, not for you)"))
    let all = await bot.say("!help all", role: .viewer)
    for spec in CommandRegistry.all { #expect(all.contains("!\(spec.name)")) }
    #expect(all.contains("[admin]"))
    let one = await bot.say("!help watch")
    #expect(one.contains("!watch <thread>") && one.contains("member"))
    #expect(await bot.say("!help nope").contains("There is no command"))
  }

  @Test("unknown commands get the closest command as a hint")
  func unknownCommand() async throws {
    let bot = try await CommandHarness()
    let answer = await bot.say("!bookmakrs")
    #expect(answer.contains("Unknown command “bookmakrs”"))
    #expect(answer.contains("Did you mean !bookmarks?"))
    #expect(await bot.say("!frobnicate").contains("!help lists the commands"))
  }

  @Test("plain chat gets no answer; replies answer the message id")
  func replyShape() async throws {
    let bot = try await CommandHarness()
    #expect(await bot.send("just chatting") == nil)
    let message = bot.message("!status")
    let reply = try #require(await bot.router.handle(message, capabilities: .plainText))
    #expect(reply.kind == .reply)
    #expect(reply.inReplyTo == message.messageID)
  }

  @Test("a message the transport marked as addressed (its address removed) is a command without a prefix")
  func addressedMessage() async throws {
    let bot = try await CommandHarness()
    var message = bot.message("status")
    #expect(await bot.router.handle(message, capabilities: .plainText) == nil, "plain chat in a room")
    message.addressed = true
    let reply = try #require(await bot.router.handle(message, capabilities: .plainText))
    #expect(!reply.text.contains("Unknown command"), "\(reply.text)")
    message.text = "!help watch"
    #expect(await bot.router.handle(message, capabilities: .plainText)?.text.contains("!watch <thread>") == true)
  }

  @Test(
    "permission denials name the role needed",
    arguments: [
      ("!watch 100", "member"), ("!bookmark 100", "member"), ("!subscribe announcements", "member"),
      ("!quiet off", "member"), ("!mode each", "member"), ("!reply 100 hi", "admin"), ("!unfurl off", "admin"),
      ("!pause", "member"), ("!resume", "member"),
    ])
  func denials(_ command: String, _ role: String) async throws {
    let bot = try await CommandHarness()
    let answer = await bot.say(command, role: nil)
    #expect(answer.contains("needs the \(role) role"))
    #expect(answer.contains("you are a viewer"))
  }

  @Test("config grants lift a user's role")
  func configGrant() async throws {
    let bot = try await CommandHarness(grants: ["test": ["@carol:example.org": .member]])
    #expect(await bot.say("!mode summary 5", role: nil, sender: "carol").contains("Mode set: summary"))
    #expect(await bot.say("!unfurl off", role: nil, sender: "carol").contains("needs the admin role"))
  }

  @Test("bookmarks lists, filters unread, and pages")
  func bookmarks() async throws {
    let bot = try await CommandHarness()
    let listing = await bot.say("!bookmarks", role: nil)
    #expect(listing.contains("The Bookmarked Thread"))
    #expect(listing.contains("3 unread"))
    #expect(listing.contains("showthread.php?threadid=100"))
    #expect(await bot.say("!bookmarks unread", role: nil).contains("The Bookmarked Thread"))
    #expect(await bot.say("!bookmarks 2", role: nil) == "The bookmarks have 1 page; there is no page 2.")
    #expect(await bot.say("!bookmarks sideways", role: nil).contains("Usage: !bookmarks"))
  }

  @Test("bookmark with a colour, then undo removes it")
  func bookmarkAndUndo() async throws {
    let bot = try await CommandHarness()
    let answer = await bot.say(
      "!bookmark https://forums.somethingawful.com/showthread.php?threadid=200 red", role: .member)
    #expect(answer.contains("Bookmarked “Another Thread” (red)"))
    #expect(bot.forum.thread("200")?.isBookmarked == true)
    #expect(bot.forum.thread("200")?.star == .red)
    #expect(await bot.say("!undo", role: .member).contains("Undone: bookmarked “Another Thread”"))
    #expect(bot.forum.thread("200")?.isBookmarked == false)
    #expect(await bot.say("!undo", role: .member).contains("Nothing of yours to undo"))
  }

  @Test("undo expires after ten minutes")
  func undoExpires() async throws {
    let bot = try await CommandHarness()
    _ = await bot.say("!bookmark 200")
    bot.clock.advance(by: 11 * 60)
    #expect(await bot.say("!undo").contains("Nothing of yours to undo"))
    #expect(bot.forum.thread("200")?.isBookmarked == true)
  }

  @Test("bookmark failures: bad colour, foreign link, unknown thread, forum error")
  func bookmarkFailures() async throws {
    let bot = try await CommandHarness()
    #expect(await bot.say("!bookmark 200 mauve").contains("Unknown colour “mauve”"))
    #expect(await bot.say("!bookmark https://evil.example.com/showthread.php?threadid=1").contains("not forum links"))
    #expect(await bot.say("!bookmark 999") == "No such thread on the forum, or the bot's forum account cannot see it.")
    #expect(await bot.say("!bookmark").contains("Usage: !bookmark <thread> [colour]"))
    bot.forum.setFault(ForumPageError.loggedOut(message: "secret-cookie"))
    let answer = await bot.say("!bookmark 200")
    #expect(answer.contains("logged out"))
    #expect(!answer.contains("secret-cookie"))
  }

  @Test("unbookmark, and unbookmarking a thread that is not bookmarked")
  func unbookmark() async throws {
    let bot = try await CommandHarness()
    #expect(await bot.say("!unbookmark 100").contains("Removed “The Bookmarked Thread”"))
    #expect(bot.forum.thread("100")?.isBookmarked == false)
    #expect(await bot.say("!unbookmark 100").contains("is not bookmarked"))
    #expect(await bot.say("!undo").contains("Undone"))
    #expect(bot.forum.thread("100")?.isBookmarked == true)
  }

  @Test("watch a post link: resolves the thread, bookmarks it, subscribes with filters")
  func watchPostLink() async throws {
    let bot = try await CommandHarness()
    let answer = await bot.say(
      "!watch https://forums.somethingawful.com/showthread.php?goto=post&postid=202 --op-only --author Bob --keyword cats"
    )
    #expect(answer.contains("Watching “Another Thread”"))
    #expect(answer.contains("OP only"))
    #expect(bot.forum.thread("200")?.isBookmarked == true)
    let subscriptions = try await bot.engine.subscriptions.subscriptions(room: bot.room)
    #expect(subscriptions.count == 1)
    #expect(subscriptions.first?.target == .thread(id: "200"))
    #expect(
      subscriptions.first?.filters == SubscriptionFilters(includeAuthors: ["Bob"], keywords: ["cats"], opOnly: true))
    #expect(await bot.say("!subscriptions", role: nil).contains("thread 200 (OP only; by Bob; mentioning “cats”)"))
  }

  @Test("watch again updates filters; unwatch; unwatching twice")
  func unwatch() async throws {
    let bot = try await CommandHarness()
    _ = await bot.say("!watch 200")
    #expect(await bot.say("!watch 200 --op-only").contains("Updated the filters"))
    #expect(await bot.say("!unwatch 200").contains("Stopped watching thread 200"))
    #expect(try await bot.engine.subscriptions.subscriptions(room: bot.room).isEmpty)
    #expect(await bot.say("!unwatch 200").contains("not watching thread 200"))
    #expect(await bot.say("!watch 200 --colour red").contains("Unknown option --colour"))
    #expect(await bot.say("!watch").contains("Usage: !watch"))
  }

  @Test("subscribe and unsubscribe bookmarks, colours, announcements, forums")
  func subscriptions() async throws {
    let bot = try await CommandHarness()
    #expect(await bot.say("!subscriptions").contains("follows nothing yet"))
    #expect(await bot.say("!subscribe bookmarks").contains("Subscribed this room to all bookmarks"))
    #expect(await bot.say("!subscribe bookmarks").contains("already subscribed"))
    #expect(await bot.say("!subscribe bookmarks red green").contains("bookmarks starred red, green"))
    #expect(await bot.say("!subscribe announcements").contains("Subscribed this room to announcements"))
    #expect(await bot.say("!subscribe forum gbs").contains("new threads in General Bullshit"))
    let targets = try await bot.engine.subscriptions.subscriptions(room: bot.room).map(\.target)
    #expect(targets.contains(.forum(id: "273")))
    #expect(targets.contains(.stars([.red, .green])))
    #expect(await bot.say("!unsubscribe announcements").contains("Unsubscribed this room from announcements"))
    #expect(await bot.say("!unsubscribe announcements").contains("not subscribed to announcements"))
    #expect(await bot.say("!subscribe bookmarks mauve").contains("Unknown colour"))
    #expect(await bot.say("!subscribe weather").contains("not something to subscribe to"))
    #expect(await bot.say("!subscribe forum General").contains("matches several forums"))
    #expect(await bot.say("!subscribe forum nothing-like-it").contains("No forum matches"))
  }

  @Test("forums searches the index; threads lists a forum by name or id")
  func browsing() async throws {
    let bot = try await CommandHarness()
    let all = await bot.say("!forums", role: nil)
    #expect(all.contains("FYAD (26)") && all.contains("General Chat (274)"))
    #expect(!all.contains("Main"))
    let search = await bot.say(#"!forums "general b""#, role: nil)
    #expect(search.contains("General Bullshit") && !search.contains("FYAD"))
    #expect(await bot.say("!forums zzz", role: nil).contains("No forum matches"))
    let threads = await bot.say("!threads fyad", role: nil)
    #expect(threads.contains("The Bookmarked Thread") && threads.contains("Another Thread"))
    #expect(await bot.say("!threads 26 2", role: nil) == "FYAD has 1 page; there is no page 2.")
    #expect(await bot.say("!threads", role: nil).contains("Usage: !threads"))
  }

  @Test("latest shows the last posts, crossing back a page when needed")
  func latest() async throws {
    let bot = try await CommandHarness()
    let answer = await bot.say("!latest 100 7", role: nil)
    #expect(answer.contains("last 7 posts"))
    #expect(answer.contains("Post number 45 of 10") && answer.contains("Post number 39 of 10"))
    #expect(!answer.contains("Post number 38 of 10"))
    #expect(answer.contains("#post1045"))
    #expect(await bot.say("!latest 100 11", role: nil).contains("The number of posts must be from 1 to 10."))
  }

  @Test("reply shows a preview and posts only after confirm by the same user in the same room")
  func replyConfirm() async throws {
    let bot = try await CommandHarness()
    let preview = await bot.say(#"!reply 200 Hello "goons", this is "unbalanced"#)
    #expect(preview.contains("Reply to “Another Thread”"))
    #expect(preview.contains(#"> Hello "goons", this is "unbalanced"#))
    #expect(preview.contains("!confirm"))
    #expect(bot.forum.replies.isEmpty)
    #expect(await bot.say("!confirm", sender: "mallory").contains("Nothing to confirm"))
    #expect(await bot.say("!confirm", room: "!other").contains("Nothing to confirm"))
    let posted = await bot.say("!confirm")
    #expect(posted.contains("Posted to “Another Thread”"))
    #expect(posted.contains("#post900000"))
    let replies = bot.forum.replies
    #expect(replies.count == 1 && replies.first?.text == #"Hello "goons", this is "unbalanced"#)
    #expect(await bot.say("!confirm").contains("Nothing to confirm"))
  }

  @Test("a reply preview expires after two minutes; cancel drops it")
  func replyExpiry() async throws {
    let bot = try await CommandHarness()
    _ = await bot.say("!reply 200 late")
    bot.clock.advance(by: 121)
    #expect(await bot.say("!confirm").contains("expired"))
    #expect(bot.forum.replies.isEmpty)
    _ = await bot.say("!reply 200 never")
    #expect(await bot.say("!cancel").contains("nothing was posted"))
    #expect(await bot.say("!confirm").contains("Nothing to confirm"))
    #expect(bot.forum.replies.isEmpty)
  }

  @Test("reply refuses closed threads and empty text")
  func replyFailures() async throws {
    let bot = try await CommandHarness()
    #expect(await bot.say("!reply 300 hi").contains("is closed"))
    #expect(await bot.say("!reply 200").contains("Usage: !reply"))
    #expect(await bot.say("!reply").contains("Usage: !reply"))
  }

  @Test("quiet: daily hours, for a duration, off, and bad input")
  func quiet() async throws {
    let bot = try await CommandHarness()
    #expect(await bot.say("!quiet 23:00-07:30").contains("Quiet hours set: daily 23:00–07:30"))
    #expect(
      try await bot.engine.roomSettings.settings(room: bot.room).quietHours == QuietHours(parsingDaily: "23:00-07:30"))
    #expect(await bot.say("!quiet for 2h").contains("Quiet for 2h"))
    #expect(
      try await bot.engine.roomSettings.settings(room: bot.room).quietUntil == bot.clock.now().addingTimeInterval(7200))
    // The end of a quiet spell reads like every other date in chat, not in ISO 8601.
    let until = DateText(timeZone: .gmt).format(bot.clock.now().addingTimeInterval(7200))
    #expect(await bot.say("!quiet") == "Quiet: daily 23:00–07:30, until \(until).")
    #expect(await bot.say("!status").contains("quiet: daily 23:00–07:30, until \(until) (quiet now)"))
    #expect(await bot.say("!quiet off").contains("off"))
    let settings = try await bot.engine.roomSettings.settings(room: bot.room)
    #expect(settings.quietHours == nil && settings.quietUntil == nil)
    #expect(await bot.say("!quiet 25:00-07:00").contains("Usage: !quiet"))
    #expect(await bot.say("!quiet for ever").contains("Give a duration"))
  }

  @Test("pause and status name the configured prefix, not !")
  func pauseNamesThePrefix() async throws {
    let bot = try await CommandHarness(prefix: ".")
    #expect(await bot.say(".pause") == "Paused: new posts are held for this room until .resume.")
    let status = await bot.say(".status")
    #expect(status.contains("paused (.resume to relay again)") && !status.contains("!"))
  }

  @Test("pause and resume: the room's state follows, repeats are answered, undo reverts, arguments are refused")
  func pauseAndResume() async throws {
    let bot = try await CommandHarness()
    #expect(await bot.say("!resume").contains("not paused"))
    #expect(await bot.say("!pause").contains("Paused: new posts are held"))
    #expect(try await bot.engine.roomSettings.settings(room: bot.room).isPaused)
    #expect(await bot.say("!pause").contains("already paused"))
    let status = await bot.say("!status")
    #expect(status.contains("paused (!resume to relay again)"))
    #expect(!status.contains("quiet now"))
    #expect(await bot.say("!resume").contains("Resumed"))
    #expect(try await bot.engine.roomSettings.settings(room: bot.room).isPaused == false)
    _ = await bot.say("!undo")
    #expect(try await bot.engine.roomSettings.settings(room: bot.room).isPaused, "undo of resume pauses again")
    #expect(await bot.say("!pause now").contains("Usage: !pause"))
  }

  @Test("mode: each, summary with K, digest hourly and daily; bad input")
  func mode() async throws {
    let bot = try await CommandHarness()
    #expect(await bot.say("!mode summary 5").contains("Mode set: summary"))
    #expect(try await bot.engine.roomSettings.settings(room: bot.room).mode == .summary(threshold: 5))
    _ = await bot.say("!mode digest daily 08:30")
    #expect(
      try await bot.engine.roomSettings.settings(room: bot.room).mode
        == .digest(.daily(TimeOfDay(hour: 8, minute: 30)!)))
    _ = await bot.say("!mode digest hourly")
    #expect(try await bot.engine.roomSettings.settings(room: bot.room).mode == .digest(.hourly))
    _ = await bot.say("!mode each")
    #expect(try await bot.engine.roomSettings.settings(room: bot.room).mode == .each)
    #expect(await bot.say("!mode").contains("Mode: each post"))
    #expect(await bot.say("!mode summary 0").contains("K is a number"))
    #expect(await bot.say("!mode digest weekly").contains("Usage: !mode"))
    #expect(await bot.say("!undo").contains("Undone"))
  }

  @Test("alerts: own name as member, others need admin; list and remove")
  func alerts() async throws {
    let bot = try await CommandHarness(forumNames: ["test": ["@alice:example.org": "alice"]])
    #expect(await bot.say("!alert alice", role: .member).contains("will hear when alice"))
    #expect(await bot.say("!alert \"Some Goon\"", role: .member).contains("need the admin role"))
    #expect(await bot.say("!alert Some Goon", role: .admin).contains("will hear when Some Goon"))
    #expect(await bot.say("!alert Some Goon", role: .admin).contains("already has an alert"))
    let list = await bot.say("!alerts", role: nil)
    #expect(list.contains("alice") && list.contains("Some Goon"))
    #expect(await bot.say("!unalert Some Goon").contains("Stopped the alert"))
    #expect(await bot.say("!unalert Some Goon").contains("no alert on Some Goon"))
    #expect(await bot.say("!alert").contains("Usage: !alert"))
  }

  @Test("alert: 'your own name' is the forum name the config gives (roles[].forumName), never the display name")
  func alertOwnNameFromTheConfig() async throws {
    let bot = try await CommandHarness(forumNames: ["*": ["@alice:example.org": "Alice Goon"]])
    // Her display name is "alice", and anyone can take that one: it names nobody on the forum.
    #expect(
      await bot.say("!alert alice", role: .member)
        == "Alerts on someone else need the admin role; you may set one on your own name, Alice Goon.")
    #expect(await bot.say("!alert alice goon", role: .member).contains("will hear when alice goon"))
    #expect(await bot.say("!unalert Alice Goon", role: .member).contains("Stopped the alert"))
    // Mallory calls herself "Alice Goon" in chat; the config gives her no forum name.
    #expect(
      await bot.say("!alert Alice Goon", role: .member, sender: "Alice Goon")
        == "Alerts need the admin role; you could set one on your own forum name if the config gave it "
        + "(roles[].forumName).")
    #expect(try await bot.engine.alerts.alerts(room: bot.room).isEmpty)
  }

  @Test("status shows settings, subscriptions and the queue")
  func status() async throws {
    let bot = try await CommandHarness()
    _ = await bot.say("!subscribe announcements")
    let answer = await bot.say("!status", role: nil)
    #expect(answer.contains("Mode: each post"))
    #expect(answer.contains("Follows: announcements"))
    #expect(answer.contains("waiting"))
  }

  @Test("status names poll sources in words and reads a failing one as sentences")
  func statusOfFailingSources() async throws {
    let bot = try await CommandHarness()
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    try await bot.engine.database.write { tx in
      try tx.save(SourceHealthRecord(source: "privateMessages", lastAttemptAt: now, lastSuccessAt: now, totalPolls: 1))
      try tx.save(
        SourceHealthRecord(
          source: "announcements", lastAttemptAt: now, lastErrorAt: now,
          lastError: "No forum with that id, or the bot's forum account cannot see it.", consecutiveErrors: 3,
          totalErrors: 3, totalPolls: 3, nextAttemptAt: now.addingTimeInterval(120)))
      try tx.save(SourceHealthRecord(source: "forum:46", lastAttemptAt: now, lastSuccessAt: now, totalPolls: 1))
    }
    let lines = await bot.say("!status", role: nil).split(separator: "\n").map(String.init)
    #expect(
      lines.contains(
        "Polling announcements: 3 errors in a row, the last: No forum with that id, or the bot's forum account cannot "
          + "see it. Next try 2023-11-14 22:15 UTC."), "\(lines)")
    #expect(lines.contains("Polling private messages: ok, last 2023-11-14 22:13 UTC"), "\(lines)")
    #expect(lines.contains("Polling forum 46: ok, last 2023-11-14 22:13 UTC"), "\(lines)")
  }

  @Test("why takes post links and ids and explains a missing post; thread links are refused")
  func why() async throws {
    let bot = try await CommandHarness()
    let answer = await bot.say("!why https://forums.somethingawful.com/showthread.php?threadid=200#post202", role: nil)
    #expect(answer.contains("Post 202 was not sent here"))
    #expect(answer.contains("no subscriptions"))
    #expect(await bot.say("!why 202", role: nil).contains("Post 202"))
    #expect(
      await bot.say("!why https://forums.somethingawful.com/showthread.php?threadid=200", role: nil).contains(
        "give a link to a post"))
    #expect(
      await bot.say("!why https://evil.example/showthread.php?threadid=1#post2", role: nil).contains("not forum links"))
  }

  @Test("unfurl: links pasted in chat are answered with forum, title, page and author; off stops it")
  func unfurl() async throws {
    let bot = try await CommandHarness()
    let answer = try #require(
      await bot.send("look https://forums.somethingawful.com/showthread.php?goto=post&postid=1042 lol", role: nil))
    #expect(answer.contains("General Bullshit › The Bookmarked Thread, page 2 of 2, post by Poster42"))
    #expect(!answer.contains("http"))
    #expect(await bot.say("!unfurl off").contains("no longer be unfurled"))
    #expect(await bot.send("https://forums.somethingawful.com/showthread.php?threadid=100", role: nil) == nil)
    #expect(await bot.say("!unfurl maybe").contains("Usage: !unfurl on | off"))
  }

  @Test("a quoted argument with an unclosed quote gets a syntax error with usage")
  func syntaxError() async throws {
    let bot = try await CommandHarness()
    #expect(await bot.say(#"!forums "general"#).contains("missing its closing quote"))
  }

  @Test("errors never leak secrets")
  func redaction() {
    struct Leaky: Error, CustomStringConvertible {
      var description: String { "POST failed: password=hunter2&username=bot; Cookie: bbpassword=abc123" }
    }
    let text = ErrorText.describe(Leaky())
    #expect(!text.contains("hunter2") && !text.contains("abc123"))
    #expect(text.contains("[redacted]"))
  }

  @Test("user text echoed back cannot ping the room")
  func echoedMentionsDefused() async throws {
    let bot = try await CommandHarness()
    let answer = await bot.say("!@room")
    #expect(!answer.contains("@room"))
  }
}
