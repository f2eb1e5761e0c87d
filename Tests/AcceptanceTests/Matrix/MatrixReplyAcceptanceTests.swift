import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import FakeForum
import Foundation
import MatrixModel
import MatrixTransport
import Testing

extension MatrixIntegrationTests.PolicyChain {
  /// Answering a relayed post by replying to it in the room, and reactions on relays as quick commands (issue 26),
  /// read as the people in the room read them: the owner (admin by power), the moderator (member) and a plain user
  /// (viewer) reply to relays and react to them in Element's way; the bot previews, is confirmed by ✅ or `!confirm`,
  /// edits its preview into "Posted", and the emulator holds the quoted reply on the page the link opens.
  ///
  /// The timelines are what a client shows, line by line: messages ("who: body"; a reply as "who (reply to the
  /// relay): text", its quoted fallback left out as clients do), reactions ("who reacts ✅ to the preview"), edits
  /// ("bot edits the preview: new text"), removals. Links to the emulator read as https://forum.example.
  @Suite("Matrix acceptance: answering relayed posts, reactions on relays", .serialized)
  struct MatrixReplyAcceptanceTests {
    static let devThread = 3_600_001
    static let thread1 = MatrixIntegrationTests.MatrixAcceptanceTests.thread1
    static let link1 = MatrixIntegrationTests.MatrixAcceptanceTests.link1
    /// The emulator's development thread has 95 posts: a relayed post and the replies to it are on page 3.
    static let page3 = "\(link1)&pagenumber=3"
    static let firstDate = MatrixIntegrationTests.MatrixAcceptanceTests.firstDate
    static let relayedText = "The bridge should remember which post each relay shows, even after a restart."
    static let confirmHow = "Say !confirm or react ✅ within 2 minutes to post it; !cancel or ❌ drops it."
    /// In an encrypted room a reply relation may be the homeserver's: only an encrypted `!confirm` posts.
    static let commandOnlyHow =
      "Send !confirm within 2 minutes to post it, or !cancel. In an encrypted room the homeserver can turn any line "
      + "into a reply and forge reactions, so only your encrypted !confirm posts it."
    static let reactionRefusal =
      "A reaction does not settle this preview: it began as a reply in an encrypted room, and the homeserver can "
      + "forge replies and reactions there. Send !confirm to post it, or !cancel."
    static let roleRefusal = "Replying to relayed posts on the forum needs the admin role here; you are a viewer."

    /// The relay of Zoë Québec's post in the development thread, as the room reads it.
    static func relayLine(_ postID: Int, text: String = relayedText, minute: Int = 0) -> String {
      """
      bot: \(thread1) — Zoë Québec, 2024-02-01 12:\(20 + minute) UTC
      \(text)
      \(page3)#post\(postID)
      """
    }

    /// The preview of a reply quoting Zoë Québec's post in the development thread.
    static func previewText(quoting words: String = relayedText, _ text: String, how: String = confirmHow) -> String {
      """
      Reply to “\(thread1)” as the bot account (it lands on page 3), quoting Zoë Québec: \(page3)
      > \(words)
      with your text:
      > \(text)
      \(how)
      """
    }

    static func postedText(_ postID: Int) -> String {
      "Posted: “\(thread1)”, quoting Zoë Québec. \(page3)#post\(postID)"
    }

    /// What the bot account posts: the Quote button's text for the post, then the words typed in the room.
    static func postedBBCode(quoting postID: Int, words: String = relayedText, _ text: String) -> String {
      "[quote=\"Zoë Québec\" post=\"\(postID)\"]\n\(words)\n[/quote]\n\n\(text)"
    }

    // MARK: Plain room

    @Test(
      "a plain room: a viewer's reply is refused with the role; the owner's replies are previewed, confirmed by ✅ and by !confirm, and posted with the quote"
    )
    func answerByReplying() async throws {
      try await MatrixTestWorld.with { world in
        let bot = try MatrixBotProcess(world: world)
        try await bot.run { bot in
          let room = try await MatrixAcceptanceRoom.open(world: world, bot: bot)
          var labels: [String: String] = [:]
          let subscribe = try await room.ask("moderator: !subscribe bookmarks")
          labels[try #require(subscribe.first?.eventID)] = "the answer to !subscribe"
          await bot.pollBookmarks()
          let (relay, postID) = try await room.relay(Self.relayedText, date: Self.firstDate)
          labels[relay] = "the relay"

          // plain (a viewer) answers the relay: one sentence with the role needed.
          let plainReply = try await room.plain.reply(to: relay, text: "I agree, post it!", in: room.id)
          let refusal = try await room.answers(to: plainReply)
          #expect(refusal.map { $0.body ?? "" } == [Self.roleRefusal])

          // The owner answers it: a preview to confirm.
          let firstText = "Agreed: it should survive a restart."
          let ownerReply = try await room.owner.reply(to: relay, text: firstText, in: room.id)
          let preview = try #require(try await room.answers(to: ownerReply).first)
          let previewID = try #require(preview.eventID)
          labels[previewID] = "the preview"
          #expect(room.readable(preview.body ?? "") == Self.previewText(firstText))
          #expect(
            room.readable(preview.formattedBody ?? "")
              == #"<p>Reply to <a href="\#(Self.page3.htmlEscaped)">“\#(Self.thread1)”</a> as the bot account (it lands on page 3), quoting Zoë Québec:</p><blockquote>\#(Self.relayedText)</blockquote><p>with your text:</p><blockquote>\#(firstText)</blockquote><p>Say <code>!confirm</code> or react ✅ within 2 minutes to post it; <code>!cancel</code> or ❌ drops it.</p>"#
          )

          // plain's ✅ on someone else's preview does nothing; the owner's posts it and the preview becomes "Posted".
          let plainCheck = try await room.plain.react(to: previewID, key: "✅", in: room.id)
          try await room.owner.react(to: previewID, key: "✅", in: room.id)
          let posted = try await room.waitForEdit(of: previewID, containing: "Posted")
          let firstPost = try #require(await world.forumState.thread(Self.devThread)?.postIDs.last)
          #expect(posted.body == Self.postedText(firstPost), "as the owner's client shows the preview now")
          #expect(
            posted.html
              == #"<p>Posted: <a href="\#(Self.page3.htmlEscaped)#post\#(firstPost)">“\#(Self.thread1)”</a>, quoting Zoë Québec.</p>"#
          )
          #expect(try await room.answers(to: plainCheck, timeout: .zero).isEmpty, "no answer to plain's ✅")

          // A second reply to the same relay, confirmed with !confirm.
          let secondText = "And a second answer, confirmed by command."
          let secondReply = try await room.owner.reply(to: relay, text: secondText, in: room.id)
          let secondPreview = try #require(try await room.answers(to: secondReply).first?.eventID)
          labels[secondPreview] = "the second preview"
          try await room.owner.say("!confirm", in: room.id)
          _ = try await room.waitForEdit(of: secondPreview, containing: "Posted")
          let secondPost = try #require(await world.forumState.thread(Self.devThread)?.postIDs.last)
          #expect(secondPost != firstPost)

          // A third, dropped by ❌ on its preview.
          let thirdReply = try await room.owner.reply(to: relay, text: "On second thought, no.", in: room.id)
          let thirdPreview = try #require(try await room.answers(to: thirdReply).first?.eventID)
          labels[thirdPreview] = "the third preview"
          try await room.owner.react(to: thirdPreview, key: "❌", in: room.id)
          _ = try await room.waitForEdit(of: thirdPreview, containing: "Dropped")

          // An answer to one of the bot's answers (not a relay): one sentence; "!status" is not run.
          let notARelay = try await room.owner.reply(
            to: try #require(subscribe.first?.eventID), text: "!status", in: room.id)
          _ = try await room.answers(to: notARelay)

          let timeline = try await room.timeline(labels)
          #expect(
            timeline == [
              "moderator: !subscribe bookmarks",
              "bot: Subscribed this room to all bookmarks.",
              Self.relayLine(postID),
              "plain (reply to the relay): I agree, post it!",
              "bot: \(Self.roleRefusal)",
              "owner (reply to the relay): \(firstText)",
              "bot: \(Self.previewText(firstText))",
              "plain reacts ✅ to the preview",
              "owner reacts ✅ to the preview",
              "bot edits the preview: \(Self.postedText(firstPost))",
              "owner (reply to the relay): \(secondText)",
              "bot: \(Self.previewText(secondText))",
              "owner: !confirm",
              "bot edits the second preview: \(Self.postedText(secondPost))",
              "owner (reply to the relay): On second thought, no.",
              "bot: \(Self.previewText("On second thought, no."))",
              "owner reacts ❌ to the third preview",
              "bot edits the third preview: Dropped the reply; nothing was posted.",
              "owner (reply to the answer to !subscribe): !status",
              """
              bot: That message of mine shows no forum post, so there is nothing to reply to on the forum; answer a \
              relayed post to reply to it.
              """,
            ])
          MatrixIntegrationTests.MatrixAcceptanceTests.expectSafe(try await room.messages(), room)

          // The forum: two new posts by the bot account, each the quote of Zoë Québec's post, then the owner's words;
          // the dropped reply was never posted.
          let thread = try #require(await world.forumState.thread(Self.devThread))
          #expect(thread.postIDs.suffix(3) == [postID, firstPost, secondPost])
          for (id, text) in [(firstPost, firstText), (secondPost, secondText)] {
            let post = try #require(await world.forumState.post(id))
            #expect(post.authorID == FakeForumSeed.botUserID)
            #expect(post.body == .bbcode(Self.postedBBCode(quoting: postID, text)))
          }
          // Each "Posted" link opens the page that holds the new post.
          try await MatrixIntegrationTests.MatrixAcceptanceTests.expectLinksLand(
            [("\(Self.page3)#post\(firstPost)", firstPost), ("\(Self.page3)#post\(secondPost)", secondPost)], room)
        }
      }
    }

    // MARK: The forum's flood limit

    @Test(
      "the forum's flood limit: a confirm inside the window gets the forum's sentence, the text is kept, and a later !confirm posts it"
    )
    func floodLimit() async throws {
      try await MatrixTestWorld.with { world in
        let bot = try MatrixBotProcess(world: world)
        try await bot.run { bot in
          let room = try await MatrixAcceptanceRoom.open(world: world, bot: bot)
          var labels: [String: String] = [:]
          try await room.ask("moderator: !subscribe bookmarks")
          await bot.pollBookmarks()
          let (relay, postID) = try await room.relay(Self.relayedText, date: Self.firstDate)
          labels[relay] = "the relay"
          let admin = FakeForumAdminClient(baseURL: world.forumURL)
          let on = try await admin.send("POST", "/_fake/faults", json: #"{"kind":"floodCheck","seconds":600}"#)
          #expect(on.status == 200, "\(on.text)")

          // The first reply goes up.
          let firstText = "First, before the flood limit bites."
          let firstPreview = try #require(
            try await room.answers(to: try await room.owner.reply(to: relay, text: firstText, in: room.id)).first?
              .eventID)
          labels[firstPreview] = "the first preview"
          try await room.owner.react(to: firstPreview, key: "✅", in: room.id)
          _ = try await room.waitForEdit(of: firstPreview, containing: "Posted")
          let firstPost = try #require(await world.forumState.thread(Self.devThread)?.postIDs.last)

          // The second, confirmed inside the window by ✅, then by !confirm: the forum's sentence, the text kept.
          let secondText = "Second, too soon after the first."
          let secondPreview = try #require(
            try await room.answers(to: try await room.owner.reply(to: relay, text: secondText, in: room.id)).first?
              .eventID)
          labels[secondPreview] = "the second preview"
          let tooSoon = try await room.owner.react(to: secondPreview, key: "✅", in: room.id)
          let refusals = try await room.answers(to: tooSoon)
          let again = try await room.owner.say("!confirm", in: room.id)
          let refusedAgain = try await room.answers(to: again)
          let waits = (refusals + refusedAgain).compactMap { $0.body?.firstMatch(of: /try again in (\d+) seconds/) }
            .compactMap { Int($0.1) }
          #expect(waits.count == 2 && waits.allSatisfy { (560...600).contains($0) }, "the forum's wait: \(waits)")
          #expect(await world.forumState.thread(Self.devThread)?.postIDs.last == firstPost, "nothing posted")

          // The limit is lifted (as if the window had passed): !confirm posts the kept text.
          let off = try await admin.send("DELETE", "/_fake/faults/floodCheck")
          #expect(off.status == 200, "\(off.text)")
          try await room.owner.say("!confirm", in: room.id)
          _ = try await room.waitForEdit(of: secondPreview, containing: "Posted")
          let secondPost = try #require(await world.forumState.thread(Self.devThread)?.postIDs.last)
          #expect(secondPost != firstPost)

          let refusal = """
            bot: The forum refused the reply: This forum requires that you wait 600 seconds between posts. Please try \
            again in <M> seconds. The text is kept: say !confirm to try again (within 2 minutes), or !cancel.
            """
          let timeline = try await room.timeline(labels).map {
            $0.replacing(/try again in \d+ seconds/, with: "try again in <M> seconds")
          }
          #expect(
            timeline == [
              "moderator: !subscribe bookmarks",
              "bot: Subscribed this room to all bookmarks.",
              Self.relayLine(postID),
              "owner (reply to the relay): \(firstText)",
              "bot: \(Self.previewText(firstText))",
              "owner reacts ✅ to the first preview",
              "bot edits the first preview: \(Self.postedText(firstPost))",
              "owner (reply to the relay): \(secondText)",
              "bot: \(Self.previewText(secondText))",
              "owner reacts ✅ to the second preview",
              refusal,
              "owner: !confirm",
              refusal,
              "owner: !confirm",
              "bot edits the second preview: \(Self.postedText(secondPost))",
            ])
          for (id, text) in [(firstPost, firstText), (secondPost, secondText)] {
            let post = try #require(await world.forumState.post(id))
            #expect(post.authorID == FakeForumSeed.botUserID)
            #expect(post.body == .bbcode(Self.postedBBCode(quoting: postID, text)))
          }
          try await MatrixIntegrationTests.MatrixAcceptanceTests.expectLinksLand(
            [("\(Self.page3)#post\(secondPost)", secondPost)], room)
        }
      }
    }

    // MARK: Restart

    @Test("a restart between the relay and the reply: the bot still knows which post the relay shows")
    func restartKeepsTheRelayMap() async throws {
      try await MatrixTestWorld.with { world in
        let (room, relay, postID) = try await MatrixBotProcess(world: world).run { bot in
          let room = try await MatrixAcceptanceRoom.open(world: world, bot: bot)
          try await room.ask("moderator: !subscribe bookmarks")
          await bot.pollBookmarks()
          let (relay, postID) = try await room.relay(Self.relayedText, date: Self.firstDate)
          _ = try await bot.waitUntilOutboxDelivered()
          return (room, relay, postID)
        }
        // The same database, a new process.
        try await MatrixBotProcess(world: world).run { bot in
          try await bot.waitUntilJoined(room.id)
          let room = room.with(bot: bot)
          let labels = [relay: "the relay"]
          let plainReply = try await room.plain.reply(to: relay, text: "Still there?", in: room.id)
          _ = try await room.answers(to: plainReply)
          let text = "Answered after the bot restarted."
          let preview = try #require(
            try await room.answers(to: try await room.owner.reply(to: relay, text: text, in: room.id)).first?.eventID)
          try await room.owner.say("!confirm", in: room.id)
          _ = try await room.waitForEdit(of: preview, containing: "Posted")
          let newPost = try #require(await world.forumState.thread(Self.devThread)?.postIDs.last)

          let timeline = try await room.timeline(labels.merging([preview: "the preview"]) { $1 })
          #expect(
            timeline == [
              "moderator: !subscribe bookmarks",
              "bot: Subscribed this room to all bookmarks.",
              Self.relayLine(postID),
              "plain (reply to the relay): Still there?",
              "bot: \(Self.roleRefusal)",
              "owner (reply to the relay): \(text)",
              "bot: \(Self.previewText(text))",
              "owner: !confirm",
              "bot edits the preview: \(Self.postedText(newPost))",
            ])
          let post = try #require(await world.forumState.post(newPost))
          #expect(post.authorID == FakeForumSeed.botUserID)
          #expect(post.body == .bbcode(Self.postedBBCode(quoting: postID, text)))
        }
      }
    }

    // MARK: Reactions on relays

    @Test(
      "reactions on relays: 🔖 bookmarks the thread and 👀 watches it (✅ from the bot), a viewer is told the role, an admin's ❌ removes the relay"
    )
    func reactionsOnRelays() async throws {
      try await MatrixTestWorld.with { world in
        let bot = try MatrixBotProcess(world: world)
        try await bot.run { bot in
          let room = try await MatrixAcceptanceRoom.open(world: world, bot: bot)
          var labels: [String: String] = [:]
          try await room.ask("moderator: !subscribe bookmarks")
          await bot.pollBookmarks()
          let (first, firstID) = try await room.relay("A first post to react to.", date: Self.firstDate)
          let (second, secondID) = try await room.relay(
            "A second post to react to.", date: Self.firstDate.addingTimeInterval(60))
          labels[first] = "the first relay"
          labels[second] = "the second relay"
          // Someone unbookmarks the thread on the forum's website: the bot account no longer has it.
          await world.forumState.removeBookmark(user: FakeForumSeed.botUserID, thread: Self.devThread)
          let bookmarked = { await world.forumState.bookmarks(user: FakeForumSeed.botUserID)[Self.devThread] }

          // plain's 🔖: the role it needs, in words; nothing bookmarked.
          let plainMark = try await room.plain.react(to: first, key: "🔖", in: room.id)
          _ = try await room.answers(to: plainMark)
          #expect(await bookmarked() == nil)

          // The moderator's 🔖: bookmarked for the bot account, and the bot says so with ✅ on the relay.
          try await room.moderator.react(to: first, key: "🔖", in: room.id)
          try await room.waitForBotReaction("✅", on: first)
          #expect(
            await bookmarked()?.description == "orange", "the thread is bookmarked again, with the forum's default star"
          )

          // The moderator's 👀 on the second relay: the thread is watched here.
          try await room.moderator.react(to: second, key: "👀", in: room.id)
          try await room.waitForBotReaction("✅", on: second)
          let subscriptions = try await room.ask("plain: !subscriptions").compactMap(\.body)

          // ❌: from the moderator, the role it needs; from the owner, the relay is removed.
          let moderatorRemove = try await room.moderator.react(to: first, key: "❌", in: room.id)
          _ = try await room.answers(to: moderatorRemove)
          try await room.owner.react(to: first, key: "❌", in: room.id)
          let removed = try await room.waitForRedaction(of: first)
          #expect(removed["content"]?["body"] == nil, "the relay's text is gone")
          #expect(removed["unsigned"]?["redacted_because"]?["sender"]?.stringValue == world.botAccount.userID)
          #expect(removed["unsigned"]?["redacted_because"]?["content"]?["reason"] == "removed by an admin's ❌")

          #expect(
            room.readable(subscriptions.joined(separator: "\n"))
              == "This room follows:\n• all bookmarks\n• thread 3600001 \(Self.link1)")
          let timeline = try await room.timeline(labels)
          #expect(
            timeline == [
              "moderator: !subscribe bookmarks",
              "bot: Subscribed this room to all bookmarks.",
              "bot: (removed)",
              Self.relayLine(secondID, text: "A second post to react to.", minute: 1),
              "plain reacts 🔖 to the first relay",
              "bot: 🔖 on a relay bookmarks its thread for the bot account, which needs the member role; you are a viewer.",
              "moderator reacts 🔖 to the first relay",
              "bot reacts ✅ to the first relay",
              "moderator reacts 👀 to the second relay",
              "bot reacts ✅ to the second relay",
              "plain: !subscriptions",
              "bot: This room follows:\n• all bookmarks\n• thread 3600001 \(Self.link1)",
              "moderator reacts ❌ to the first relay",
              "bot: ❌ on a relay removes it, which needs the admin role; you are a member.",
              "owner reacts ❌ to the first relay",
              "bot removes the first relay",
            ])
          #expect(
            await world.forumState.post(firstID) != nil, "removing the relay removes nothing on the forum")
        }
      }
    }

    // MARK: Encrypted room

    /// An encrypted room whose members use a client applying Element's device policy (cross-signed devices only):
    /// alice created it (admin by power), bob is a plain member (a viewer).
    @Test(
      "an encrypted room under Element's policy: an encrypted reply is previewed, an encrypted ✅ does not post it, an encrypted !confirm does, the edit decrypts",
      .enabled(if: MatrixE2EEHuman.isAvailable, MatrixE2EEHuman.skipReason))
    func encryptedRoom() async throws {
      try await MatrixTestWorld.with { world in
        let botID = world.botAccount.userID
        let alice = try await MatrixE2EEHuman.register("alice")
        let bob = try await MatrixE2EEHuman.register("bob")
        defer {
          Task {
            await alice.quit(); await bob.quit()
          }
        }
        try await MatrixBotProcess(world: world, configure: ElementPolicy.configure).run { bot in
          let room = try await alice.createEncryptedRoom(name: "secret forum chat", invite: [botID, await bob.userID])
          try await bob.join(room)
          try await bot.waitUntilJoined(room)
          try await bot.engine.subscriptions.subscribe(room: bot.room(room), to: .bookmarks)
          await bot.pollBookmarks()
          let postID = try await world.forumState.addPost(
            thread: Self.devThread, author: 1003, body: Self.relayedText, date: Self.firstDate)
          await bot.pollBookmarks()
          let relay = try #require(
            try await alice.messages(in: room, from: botID, containing: Self.relayedText).last {
              $0.body?.contains(Self.relayedText) == true
            })
          #expect(relay.decrypted && !relay.insecure)
          let readable = { (text: String) in
            text.replacingOccurrences(
              of: world.forumURL.absoluteString.trimmingSuffix("/"), with: "https://forum.example")
          }
          #expect(readable("bot: " + (relay.body ?? "")) == Self.relayLine(postID))

          // bob, a viewer, answers it: the role it needs, encrypted, answering his reply.
          let bobReply = try await bob.reply(to: relay.eventID, text: "I agree, post it!", in: room)
          let refusal = try #require(
            try await alice.messages(in: room, from: botID, containing: "needs the admin role").last {
              $0.replyTo == bobReply
            })
          #expect(refusal.decrypted && !refusal.insecure)
          #expect(refusal.body == Self.roleRefusal)

          // alice answers it: the preview, encrypted and readable.
          let text = "Agreed, from the encrypted room."
          let aliceReply = try await alice.reply(to: relay.eventID, text: text, in: room)
          let preview = try #require(
            try await alice.messages(in: room, from: botID, containing: "as the bot account (it lands on page").last {
              $0.replyTo == aliceReply
            })
          #expect(preview.decrypted && !preview.insecure)
          #expect(readable(preview.body ?? "") == Self.previewText(text, how: Self.commandOnlyHow))

          // Her encrypted ✅ does not post it: its key and target are in clear, the homeserver's to write.
          let reaction = try await alice.react(to: preview.eventID, key: "✅", in: room)
          let refused = try #require(
            try await alice.messages(in: room, from: botID, containing: "A reaction does not settle").last {
              $0.replyTo == reaction
            })
          #expect(refused.body == Self.reactionRefusal)
          #expect(await world.forumState.thread(Self.devThread)?.postIDs.last == postID, "nothing was posted")

          // Her encrypted !confirm posts it; the edit into "Posted" is encrypted and decrypts.
          _ = try await alice.say("!confirm", in: room)
          let edits = try await alice.edits(in: room, from: botID) { $0.contains { $0.replaces == preview.eventID } }
          let edit = try #require(edits.last { $0.replaces == preview.eventID })
          #expect(edit.encrypted && edit.decrypted && edit.secure)
          let newPost = try #require(await world.forumState.thread(Self.devThread)?.postIDs.last)
          #expect(newPost != postID)
          #expect(readable(edit.content["m.new_content"]?["body"]?.stringValue ?? "") == Self.postedText(newPost))
          let post = try #require(await world.forumState.post(newPost))
          #expect(post.authorID == FakeForumSeed.botUserID)
          #expect(post.body == .bbcode(Self.postedBBCode(quoting: postID, text)))
        }
      }
    }
  }
}

// MARK: - Helpers

extension MatrixAcceptanceRoom {
  /// The same room and people with another run of the bot (after a restart).
  func with(bot: MatrixBotProcess) -> MatrixAcceptanceRoom {
    MatrixAcceptanceRoom(
      world: world, bot: bot, id: id, owner: owner, moderator: moderator, plain: plain, admin: admin, names: names)
  }

  /// Zoë Québec posts `text` in the development thread; the bot polls its bookmarks and relays it. Returns the
  /// relay's event id and the post's id.
  func relay(_ text: String, date: Date) async throws -> (event: String, post: Int) {
    let postID = try await FakeForumAdminClient(baseURL: world.forumURL).addPost(
      thread: 3_600_001, author: "Zoë Québec", body: text, date: date)
    await bot.pollBookmarks()
    let botID = world.botAccount.userID
    let isRelay = { (event: MatrixEvent) in
      event.sender == botID && event.replyTo == nil && event.replaces == nil && event.body?.contains(text) == true
    }
    let events = try await owner.waitForMessages(in: id, timeout: .seconds(30)) { $0.contains(where: isRelay) }
    let relay = try #require(events.last(where: isRelay)?.eventID, "no relay of “\(text)”")
    return (relay, postID)
  }

  /// The bot's messages answering `eventID` (a message or a reaction), once one has arrived (with `timeout` zero:
  /// what there is now).
  func answers(to eventID: String, timeout: Duration = .seconds(30)) async throws -> [MatrixEvent] {
    let botID = world.botAccount.userID
    let answers = { (events: [MatrixEvent]) in events.filter { $0.sender == botID && $0.replyTo == eventID } }
    let events = try await owner.waitForMessages(in: id, timeout: timeout) { !answers($0).isEmpty }
    if timeout > .zero && answers(events).isEmpty { Issue.record("no answer to \(eventID) within \(timeout)") }
    return answers(events)
  }

  /// Waits for the bot's edit of `eventID` whose new text contains `text`; returns the message as clients now show
  /// it (the edit's `m.new_content`), links to the emulator made readable.
  func waitForEdit(of eventID: String, containing text: String, timeout: Duration = .seconds(30)) async throws -> (
    body: String, html: String
  ) {
    let botID = world.botAccount.userID
    let matches = { (event: MatrixEvent) in
      event.sender == botID && event.replaces == eventID
        && event.content["m.new_content"]?["body"]?.stringValue?.contains(text) == true
    }
    let events = try await owner.waitForMessages(in: id, timeout: timeout) { $0.contains(where: matches) }
    let edit = try #require(events.last(where: matches), "no edit of \(eventID) saying “\(text)”")
    let shown = try #require(edit.content["m.new_content"])
    return (readable(shown["body"]?.stringValue ?? ""), readable(shown["formatted_body"]?.stringValue ?? ""))
  }

  /// Waits until the bot has reacted `key` to `eventID`.
  func waitForBotReaction(_ key: String, on eventID: String, timeout: Duration = .seconds(30)) async throws {
    let botID = world.botAccount.userID
    let reactions = try await owner.waitForEvents(in: id, types: ["m.reaction"], timeout: timeout) { events in
      events.contains { $0.sender == botID && $0.annotation?.target == eventID && $0.annotation?.key == key }
    }
    #expect(
      reactions.contains { $0.sender == botID && $0.annotation?.target == eventID && $0.annotation?.key == key },
      "the bot reacted \(key)")
  }

  /// Waits until `eventID` is redacted; returns the event as the homeserver now serves it.
  func waitForRedaction(of eventID: String, timeout: Duration = .seconds(30)) async throws -> JSONValue {
    try await readUntil(every: .milliseconds(100), timeout: timeout) {
      try await owner.call("GET", ["rooms", id, "event", eventID])
    } until: {
      $0["unsigned"]?["redacted_because"] != nil
    }
  }

  /// The room's timeline as a person follows it: messages (a reply's quoted fallback left out), reactions, edits
  /// and removals, each one line, the events named by `labels` (event id → "the relay").
  func timeline(_ labels: [String: String]) async throws -> [String] {
    let events = try await owner.events(in: id, types: ["m.room.message", "m.reaction", "m.room.redaction"])
    return events.map { event in
      let who = names[event.sender ?? ""] ?? event.sender ?? "?"
      let label = { (target: String?) in target.flatMap { labels[$0] } ?? "\(target ?? "?")" }
      switch event.type {
      case "m.reaction":
        return "\(who) reacts \(event.annotation?.key ?? "?") to \(label(event.annotation?.target))"
      case "m.room.redaction":
        return "\(who) removes \(label(event.content["redacts"]?.stringValue))"
      default:
        guard let body = event.body else { return "\(who): (removed)" }
        if let original = event.replaces {
          let shown = event.content["m.new_content"]?["body"]?.stringValue ?? body
          return "\(who) edits \(label(original)): \(readable(shown))"
        }
        if who != "bot", let target = event.replyTo {
          return "\(who) (reply to \(label(target))): \(readable(Self.withoutFallback(body)))"
        }
        return "\(who): \(readable(body))"
      }
    }
  }

  /// A reply's body without the quoted fallback clients put before it (`> <@sender> …` lines and an empty line).
  static func withoutFallback(_ body: String) -> String {
    var lines = body.components(separatedBy: "\n")
    guard lines.first?.hasPrefix("> <") == true else { return body }
    while let first = lines.first, first.hasPrefix(">") { lines.removeFirst() }
    if lines.first == "" { lines.removeFirst() }
    return lines.joined(separator: "\n")
  }
}

extension String {
  /// `&` as HTML writes it in an attribute.
  fileprivate var htmlEscaped: String { replacingOccurrences(of: "&", with: "&amp;") }

  fileprivate func trimmingSuffix(_ suffix: String) -> String {
    hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
  }
}
