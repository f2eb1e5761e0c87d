import AwfulBotEngineTestKit
import AwfulBotTestKit
import BotCore
import BotStore
import ChatBridge
import ForumModel
import Foundation
import Testing

/// Answering a relayed post from chat: by reference (`re r1`), by `nick: ^`, by a Matrix reply, by reactions. The
/// forum gets the post quoted as its Quote button quotes it, then the user's text; refusals keep the text.
@Suite("Replies to relayed posts")
struct RelayReplyTests {
  /// A delivered relay of post `postID` of thread 100 in the harness room, as the relay would have written it.
  func relayed(
    _ bot: CommandHarness, postID: String, reference: String?, receipt: String, kind: OutboxKind = .post
  ) async throws {
    let room = bot.room
    let now = bot.clock.now()
    try await bot.engine.database.write { tx in
      var row = OutboxRecord(
        transport: room.transport, room: room.room, kind: kind, payload: "{}", idempotencyKey: "relay-\(receipt)",
        createdAt: now, state: .delivered, deliveredAt: now, receipt: receipt,
        threadID: kind == .answer ? nil : "100", postID: kind == .answer ? nil : postID, reference: reference)
      try tx.enqueue(&row)
    }
  }

  @Test("re r1 previews the quoted post, the text and the page; confirm posts the quote then the text, on that page")
  func replyByReference() async throws {
    let bot = try await CommandHarness()
    try await relayed(bot, postID: "1045", reference: "r1", receipt: "irc-1")
    let preview = await bot.say("!re r1 Good point, agreed.")
    #expect(
      preview
        == """
        Reply to “The Bookmarked Thread” as the bot account (it lands on page 2), quoting Poster45: \
        https://forums.somethingawful.com/showthread.php?threadid=100&perpage=40&pagenumber=2
        > Post number 45 of 10
        with your text:
        > Good point, agreed.
        Say !confirm within 2 minutes to post it, or !cancel.
        """)
    #expect(bot.forum.replies.isEmpty, "nothing is posted before the confirm")
    let posted = await bot.say("!confirm")
    let reply = try #require(bot.forum.replies.first)
    #expect(reply.threadID == "100")
    #expect(reply.text == "[quote=\"Poster45\" post=\"1045\"]\nPost number 45 of 10\n[/quote]\n\nGood point, agreed.")
    #expect(
      posted.hasPrefix(
        "Posted: “The Bookmarked Thread”, quoting Poster45. "
          + "https://forums.somethingawful.com/showthread.php?threadid=100&perpage=40&pagenumber=2#post"),
      "the link opens the page that holds the new post: \(posted)")
  }

  @Test("the bot's posted reply is not relayed back to the room it came from; another room on the thread gets it")
  func postedReplyNotEchoed() async throws {
    let bot = try await CommandHarness()
    let other = RoomRef(transport: bot.room.transport, room: "!other")
    for room in [bot.room, other] {
      _ = try await bot.engine.subscriptions.subscribe(room: room, to: .thread(id: "100"), filters: .none, backfill: 0)
    }
    _ = await bot.engine.polling.poll(.bookmarks)
    try await relayed(bot, postID: "1045", reference: "r1", receipt: "irc-1")
    _ = await bot.say("!re r1 Good point, agreed.")
    let posted = await bot.say("!confirm")
    #expect(posted.hasPrefix("Posted: "), "\(posted)")
    let newPost = try #require(posted.split(separator: "#post").last.map(String.init))
    _ = await bot.engine.polling.poll(.bookmarks)
    let (here, there) = try await bot.engine.database.read { tx in
      (
        try tx.outboxRows(postID: newPost, transport: bot.room.transport, room: bot.room.room),
        try tx.outboxRows(postID: newPost, transport: other.transport, room: other.room)
      )
    }
    #expect(here.isEmpty, "the room read the text in the preview and the answer: \(here)")
    #expect(there.count == 1, "another room following the thread gets the bot's post as any other")
  }

  @Test("nick: ^ answers the room's last relay; an unknown reference says what to use")
  func replyToLast() async throws {
    let bot = try await CommandHarness()
    try await relayed(bot, postID: "1044", reference: "r1", receipt: "irc-1")
    try await relayed(bot, postID: "1045", reference: "r2", receipt: "irc-2")
    var message = bot.message("^ the last one")
    message.addressed = true
    let preview = await bot.router.handle(message, capabilities: .plainText)?.text ?? ""
    #expect(preview.contains("quoting Poster45"))
    #expect(
      await bot.say("!re r9 hello")
        == "No relayed post here carries “r9” (from the last 30 days); use the r-number shown before a relay.")
  }

  @Test("a member's reply may not carry pictures, links, videos or quotes in the account's name; an admin's may")
  func markupFromChat() async throws {
    let bot = try await CommandHarness()
    try await relayed(bot, postID: "1045", reference: "r1", receipt: "irc-1")
    #expect(await bot.say("!replies member").hasPrefix("From now on members and up"))
    for text in [
      "look [img]https://evil.example/x.png[/img]", "[URL=https://evil.example]click[/url]",
      "[quote=\"Admin\" post=\"1\"]I resign[/quote]", "[timg]https://evil.example/x.png[/timg]",
    ] {
      let answer = await bot.say("!re r1 \(text)", role: .member, sender: "bob")
      #expect(
        answer.hasPrefix("Your reply holds forum markup that only admins may post from chat"), "\(text): \(answer)")
    }
    #expect(
      await bot.say("!re r1 [b]bold[/b] is fine, and so is [imgur]", role: .member, sender: "bob").hasPrefix("Reply to")
    )
    #expect(await bot.say("!re r1 [img]https://example.org/cat.png[/img]").hasPrefix("Reply to"), "an admin may")
    #expect(bot.forum.replies.isEmpty)
  }

  @Test("replying is admin-only by default: a member is told the role it needs; replies member opens it")
  func rolesAndSetting() async throws {
    let bot = try await CommandHarness()
    try await relayed(bot, postID: "1045", reference: "r1", receipt: "irc-1")
    #expect(
      await bot.say("!re r1 me too", role: .member, sender: "bob")
        == "Replying to relayed posts on the forum needs the admin role here; you are a member.")
    #expect(await bot.say("!replies member").hasPrefix("From now on members and up may reply on the forum here"))
    #expect(await bot.say("!re r1 me too", role: .member, sender: "bob").hasPrefix("Reply to “The Bookmarked Thread”"))
    #expect(await bot.say("!replies off").hasPrefix("Answering relayed posts no longer posts"))
    #expect(
      await bot.say("!re r1 me too")
        == "Replying to relayed posts is off in this room; an admin can turn it on with !replies admin.")
  }

  @Test("the forum's flood wait keeps the preview: its sentence is told, and a later confirm posts it")
  func floodWait() async throws {
    let bot = try await CommandHarness()
    bot.forum.setFloodInterval(30)
    try await relayed(bot, postID: "1045", reference: "r1", receipt: "irc-1")
    _ = await bot.say("!re r1 first")
    #expect(await bot.say("!confirm").hasPrefix("Posted: "))
    _ = await bot.say("!re r1 second")
    bot.clock.advance(by: 10)
    let refused = await bot.say("!confirm")
    #expect(
      refused
        == "The forum refused the reply: This forum requires that you wait 30 seconds between posts. Please try "
        + "again in 20 seconds. The text is kept: say !confirm to try again (within 2 minutes), or !cancel.")
    #expect(bot.forum.replies.count == 1)
    bot.clock.advance(by: 25)
    #expect(await bot.say("!confirm").hasPrefix("Posted: "))
    #expect(bot.forum.replies.map(\.text).last?.hasSuffix("second") == true)
  }

  @Test("a Matrix reply to a relay starts the quoted reply; a reply to an answer of the bot is told, never run")
  func matrixReplies() async throws {
    let bot = try await CommandHarness()
    try await relayed(bot, postID: "1045", reference: nil, receipt: "$relay")
    try await relayed(bot, postID: "", reference: nil, receipt: "$answer", kind: .answer)
    var reply = bot.message("Nice one")
    reply.replyTo = "$relay"
    #expect(
      (await bot.router.handle(reply, capabilities: .plainText)?.text ?? "").hasPrefix(
        "Reply to “The Bookmarked Thread” as the bot account (it lands on page 2), quoting Poster45"))
    var toAnswer = bot.message("!status")
    toAnswer.replyTo = "$answer"
    #expect(
      await bot.router.handle(toAnswer, capabilities: .plainText)?.text
        == "That message of mine shows no forum post, so there is nothing to reply to on the forum; answer a "
        + "relayed post to reply to it.")
    var toSomeoneElse = bot.message("!status")
    toSomeoneElse.replyTo = "$someone-else"
    let status = await bot.router.handle(bot.message("!status"), capabilities: .plainText)?.text
    #expect(
      await bot.router.handle(toSomeoneElse, capabilities: .plainText)?.text == status,
      "an answer to a person's message is an ordinary message")
  }

  @Test("reactions: ✅ on the preview posts it; 🔖 bookmarks for a member, not for a viewer; ❌ from an admin removes")
  func reactions() async throws {
    let bot = try await CommandHarness()
    let capabilities = ChatCapabilities(edits: true, replies: true, reactions: true)
    try await relayed(bot, postID: "1045", reference: nil, receipt: "$relay")
    var reply = bot.message("Quoting you")
    reply.messageID = "$ask"
    reply.replyTo = "$relay"
    _ = await bot.router.handle(reply, capabilities: capabilities)
    // The preview went out as the first answer to $ask.
    let room = bot.room
    let now = bot.clock.now()
    try await bot.engine.database.write { tx in
      var row = OutboxRecord(
        transport: room.transport, room: room.room, kind: .answer, payload: "{}",
        idempotencyKey: "\(room.transport)|\(room.room)|reply:$ask#1", createdAt: now, state: .delivered,
        deliveredAt: now, receipt: "$preview")
      try tx.enqueue(&row)
    }
    func reaction(_ key: String, on target: String, sender: String = "alice", role: Role = .admin)
      -> IncomingReaction
    {
      IncomingReaction(
        transport: CommandHarness.transport, room: "!room", senderID: "@\(sender):example.org", senderName: sender,
        target: target, key: key, reactionID: "$r-\(key)-\(sender)", transportRole: role)
    }
    #expect(
      await bot.router.handle(reaction("✅", on: "$preview", sender: "bob"), capabilities: capabilities) == .nothing)
    let confirmed = await bot.router.handle(reaction("✅\u{FE0F}", on: "$preview"), capabilities: capabilities)
    #expect(confirmed.answer?.replaces == "$preview", "the preview becomes the answer")
    #expect(confirmed.answer?.text.hasPrefix("Posted: “The Bookmarked Thread”, quoting Poster45.") == true)
    #expect(bot.forum.replies.count == 1)

    let refused = await bot.router.handle(
      reaction("🔖", on: "$relay", sender: "eve", role: .viewer), capabilities: capabilities)
    #expect(
      refused.answer?.text
        == "🔖 on a relay bookmarks its thread for the bot account, which needs the member role; you are a viewer.")
    let bookmarked = await bot.router.handle(reaction("🔖", on: "$relay", role: .member), capabilities: capabilities)
    #expect(bookmarked == ReactionOutcome(acknowledgement: "✅"))
    let watched = await bot.router.handle(reaction("👀", on: "$relay", role: .member), capabilities: capabilities)
    #expect(watched == ReactionOutcome(acknowledgement: "✅"))
    #expect(
      try await bot.engine.subscriptions.subscriptions(room: bot.room).contains { $0.target == .thread(id: "100") })
    let memberRemoval = await bot.router.handle(reaction("❌", on: "$relay", role: .member), capabilities: capabilities)
    #expect(memberRemoval.answer?.text == "❌ on a relay removes it, which needs the admin role; you are a member.")
    #expect(
      await bot.router.handle(reaction("❌", on: "$relay"), capabilities: capabilities)
        == ReactionOutcome(redaction: "$relay"))
    #expect(await bot.say("!reactions off").hasPrefix("Reactions on relays no longer act here"))
    #expect(await bot.router.handle(reaction("🔖", on: "$relay"), capabilities: capabilities) == .nothing)
  }
}
