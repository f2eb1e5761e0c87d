import AwfulBotEngineTestKit
import AwfulBotTestKit
import BotCore
import BotStore
import ChatBridge
import ForumModel
import Foundation
import Testing

/// What a homeserver alone can write in an encrypted room: the relation of an encrypted line (which makes it a reply
/// to a relay) and every reaction's key and target, all kept in the clear envelope (`RelationTrust.serverControlled`).
/// None of it may post or act on the bot account by itself; a plain room keeps its reactions (`RelayReplyTests`).
/// The same case against Synapse is `HostileForumRelationTests`.
@Suite("Relations the homeserver controls")
struct ForgeableRelationTests {
  static let capabilities = ChatCapabilities(edits: true, replies: true, reactions: true)

  /// A delivered row in the harness room: a relay of `postID` in `threadID`, or the bot's answer to `answering`.
  func delivered(
    _ bot: CommandHarness, receipt: String, threadID: String = "100", postID: String = "1045",
    answering: String? = nil
  ) async throws {
    let room = bot.room
    let now = bot.clock.now()
    try await bot.engine.database.write { tx in
      var row = OutboxRecord(
        transport: room.transport, room: room.room, kind: answering == nil ? .post : .answer, payload: "{}",
        idempotencyKey: answering.map { "\(room.transport)|\(room.room)|reply:\($0)#1" } ?? "relay-\(receipt)",
        createdAt: now, state: .delivered, deliveredAt: now, receipt: receipt,
        threadID: answering == nil ? threadID : nil, postID: answering == nil ? postID : nil)
      try tx.enqueue(&row)
    }
  }

  /// An encrypted line from alice (admin) in an encrypted room, answering `replyTo` by its clear relation.
  func encryptedLine(_ bot: CommandHarness, _ text: String, id: String, replyTo: String? = nil) -> IncomingMessage {
    var message = bot.message(text)
    message.messageID = id
    message.replyTo = replyTo
    message.relationTrust = .serverControlled
    return message
  }

  func reaction(
    _ key: String, on target: String, trust: SenderTrust = .unencryptedInEncryptedRoom,
    relationTrust: RelationTrust = .serverControlled, role: Role = .admin
  ) -> IncomingReaction {
    IncomingReaction(
      transport: CommandHarness.transport, room: "!room", senderID: "@alice:example.org", senderName: "alice",
      target: target, key: key, reactionID: "$r-\(key)-\(target)-\(trust)", transportRole: role, trust: trust,
      relationTrust: relationTrust)
  }

  @Test(
    "an encrypted line the homeserver made a reply to a relay: the preview asks for !confirm, no ✅ or ❌ settles it, an encrypted !confirm posts it"
  )
  func forgedReplyNeedsTheCommand() async throws {
    let bot = try await CommandHarness()
    try await delivered(bot, receipt: "$relay")
    // The server added "in reply to the relay" to alice's encrypted chat line.
    let line = encryptedLine(bot, "lol the launch codes are 0000", id: "$line", replyTo: "$relay")
    let preview = await bot.router.handle(line, capabilities: Self.capabilities)?.text ?? ""
    #expect(preview.hasPrefix("Reply to “The Bookmarked Thread” as the bot account"), "\(preview)")
    #expect(
      preview.hasSuffix(
        "Send !confirm within 2 minutes to post it, or !cancel. In an encrypted room the homeserver can turn any line "
          + "into a reply and forge reactions, so only your encrypted !confirm posts it."),
      "the preview says which confirmation it needs: \(preview)")
    #expect(!preview.contains("✅"), "no reaction is offered")
    try await delivered(bot, receipt: "$preview", answering: "$line")

    let refusal =
      "A reaction does not settle this preview: it began as a reply in an encrypted room, and the homeserver can "
      + "forge replies and reactions there. Send !confirm to post it, or !cancel."
    // Then a ✅ in clear in alice's name (Element's reactions are in clear: the server can write one), one
    // encrypted from her trusted session (its key and target are in clear all the same), and a ❌.
    for forged in [
      reaction("✅", on: "$preview"), reaction("✅", on: "$preview", trust: .trusted), reaction("❌", on: "$preview"),
    ] {
      let outcome = await bot.router.handle(forged, capabilities: Self.capabilities)
      #expect(outcome.answer?.text == refusal, "\(forged.key) \(forged.trust): \(String(describing: outcome))")
      #expect(outcome.acknowledgement == nil && outcome.redaction == nil)
    }
    #expect(bot.forum.replies.isEmpty, "nothing reached the forum")
    // A !confirm in clear passed no trust check either.
    var clear = encryptedLine(bot, "!confirm", id: "$clear-confirm")
    clear.trust = .unencryptedInEncryptedRoom
    let untrusted = await bot.router.handle(clear, capabilities: Self.capabilities)?.text ?? ""
    #expect(untrusted.hasPrefix("“!confirm” came unencrypted in this encrypted room"), "\(untrusted)")
    #expect(bot.forum.replies.isEmpty)
    // Her encrypted !confirm posts it.
    let posted =
      await bot.router.handle(encryptedLine(bot, "!confirm", id: "$confirm"), capabilities: Self.capabilities)?.text
      ?? ""
    #expect(posted.hasPrefix("Posted: “The Bookmarked Thread”, quoting Poster45."), "\(posted)")
    #expect(bot.forum.replies.count == 1)
    #expect(bot.forum.replies.first?.text.hasSuffix("lol the launch codes are 0000") == true)
  }

  @Test("an explicit encrypted !reply keeps the exception: its preview offers ✅, and a ✅ in clear posts it")
  func explicitReplyKeepsTheReaction() async throws {
    let bot = try await CommandHarness()
    let preview =
      await bot.router.handle(encryptedLine(bot, "!reply 200 hello", id: "$ask"), capabilities: Self.capabilities)?
      .text ?? ""
    #expect(
      preview.hasSuffix("Say !confirm or react ✅ within 2 minutes to post it; !cancel or ❌ drops it."), "\(preview)")
    try await delivered(bot, receipt: "$preview", answering: "$ask")
    let outcome = await bot.router.handle(reaction("✅", on: "$preview"), capabilities: Self.capabilities)
    #expect(outcome.answer?.text.hasPrefix("Posted to “Another Thread”") == true, "\(String(describing: outcome))")
    #expect(bot.forum.replies.map(\.text) == ["hello"])
  }

  @Test("a line the homeserver made a reply never replaces a preview still waiting: the next !confirm posts the first")
  func forgedReplyReplacesNothing() async throws {
    let bot = try await CommandHarness()
    try await delivered(bot, receipt: "$relay")
    let asked =
      await bot.router.handle(encryptedLine(bot, "!reply 200 hello", id: "$ask"), capabilities: Self.capabilities)?
      .text ?? ""
    #expect(asked.hasPrefix("Reply to “Another Thread”"))
    let forged =
      await bot.router.handle(
        encryptedLine(bot, "oh wait", id: "$line", replyTo: "$relay"), capabilities: Self.capabilities)?.text ?? ""
    #expect(
      forged
        == "You have a reply waiting for confirmation: send !confirm or !cancel first. In an encrypted room the "
        + "homeserver can turn any line into a reply, so a reply never replaces a waiting preview.")
    let posted =
      await bot.router.handle(encryptedLine(bot, "!confirm", id: "$confirm"), capabilities: Self.capabilities)?.text
      ?? ""
    #expect(posted.hasPrefix("Posted to “Another Thread”"), "\(posted)")
    #expect(bot.forum.replies.map(\.text) == ["hello"], "the preview alice saw, not the line the server made a reply")
    // Expired, a waiting preview no longer blocks one.
    _ = await bot.router.handle(encryptedLine(bot, "!reply 200 again", id: "$ask2"), capabilities: Self.capabilities)
    bot.clock.advance(by: 121)
    let later =
      await bot.router.handle(
        encryptedLine(bot, "a real answer", id: "$line2", replyTo: "$relay"), capabilities: Self.capabilities)?.text
      ?? ""
    #expect(later.hasPrefix("Reply to “The Bookmarked Thread”"), "\(later)")
  }

  @Test("🔖 and 👀 in an encrypted room act on nothing, even encrypted, and name the command; in a plain room they act")
  func bookmarkAndWatchReactions() async throws {
    let bot = try await CommandHarness()
    try await delivered(bot, receipt: "$relay", threadID: "200", postID: "202")
    for trust in [SenderTrust.unencryptedInEncryptedRoom, .trusted] {
      let bookmark = await bot.router.handle(
        reaction("🔖", on: "$relay", trust: trust, role: .member), capabilities: Self.capabilities)
      #expect(
        bookmark.answer?.text
          == "In an encrypted room reactions can be forged by the server, so 🔖 does nothing here: use !bookmark 200 "
          + "instead.", "\(trust): \(String(describing: bookmark))")
      #expect(bookmark.answer?.inReplyTo == "$r-🔖-$relay-\(trust)", "the answer answers the reaction")
      #expect(bookmark.acknowledgement == nil)
      let watch = await bot.router.handle(
        reaction("👀", on: "$relay", trust: trust, role: .member), capabilities: Self.capabilities)
      #expect(
        watch.answer?.text
          == "In an encrypted room reactions can be forged by the server, so 👀 does nothing here: use !watch 200 "
          + "instead.")
      #expect(watch.acknowledgement == nil)
    }
    #expect(bot.forum.thread("200")?.isBookmarked == false, "nothing bookmarked")
    #expect(try await bot.engine.subscriptions.subscriptions(room: bot.room).isEmpty, "nothing watched")
    // A plain room keeps them.
    let plain = await bot.router.handle(
      reaction("🔖", on: "$relay", trust: .trusted, relationTrust: .asSender, role: .member),
      capabilities: Self.capabilities)
    #expect(plain == ReactionOutcome(acknowledgement: "✅"))
    #expect(bot.forum.thread("200")?.isBookmarked == true)
  }

  @Test("a plain room's reply to a relay is still settled by ✅ and offers it")
  func plainRoomUnchanged() async throws {
    let bot = try await CommandHarness()
    try await delivered(bot, receipt: "$relay")
    var line = bot.message("Quoting you")
    line.messageID = "$ask"
    line.replyTo = "$relay"
    let preview = await bot.router.handle(line, capabilities: Self.capabilities)?.text ?? ""
    #expect(preview.hasSuffix("Say !confirm or react ✅ within 2 minutes to post it; !cancel or ❌ drops it."))
    try await delivered(bot, receipt: "$preview", answering: "$ask")
    let outcome = await bot.router.handle(
      reaction("✅", on: "$preview", trust: .trusted, relationTrust: .asSender), capabilities: Self.capabilities)
    #expect(outcome.answer?.text.hasPrefix("Posted: ") == true)
    #expect(bot.forum.replies.count == 1)
  }
}
