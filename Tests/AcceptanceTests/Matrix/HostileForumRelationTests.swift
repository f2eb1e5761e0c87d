import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import FakeForum
import Foundation
import Testing

extension MatrixIntegrationTests.ElementPolicy {
  /// The homeserver as the attacker (issue 43, part 5). In an encrypted room the spec keeps an encrypted event's
  /// `m.relates_to` in the clear envelope, and Element reads it only there, so the server can make the admin's
  /// encrypted chat line "in reply to" a relay; it can also write a reaction in clear in her name (Element Web sends
  /// hers that way). The test plays the server: alice's client sends an encrypted line whose payload answers nothing,
  /// with the reply relation added to the cleartext only (exactly what a rewrite produces), then a ✅ in clear on the
  /// preview. The forum gets nothing; the room reads the preview asking for `!confirm`, and the ✅ answered with why
  /// not. 🔖 on the relay, even encrypted, bookmarks nothing and names the command. Her encrypted `!confirm` posts it.
  @Test(
    "a reply relation and a ✅ the homeserver wrote post nothing in an encrypted room; the admin's encrypted !confirm does"
  )
  func forgedReplyRelation() async throws {
    try await MatrixTestWorld.with { world in
      let botID = world.botAccount.userID
      let alice = try await MatrixE2EEHuman.register("alice")
      defer { Task { await alice.quit() } }
      try await MatrixBotProcess(world: world, configure: Self.configure).run { bot in
        let room = try await alice.createEncryptedRoom(name: "forged relations", invite: [botID])
        try await bot.waitUntilJoined(room)
        try await bot.engine.subscriptions.subscribe(room: bot.room(room), to: .bookmarks)
        await bot.pollBookmarks()
        let relayedText = "A post the homeserver would like answered."
        let postID = try await world.forumState.addPost(
          thread: Self.devThread, author: 1003, body: relayedText,
          date: MatrixIntegrationTests.MatrixAcceptanceTests.firstDate)
        await bot.pollBookmarks()
        let relay = try #require(
          try await alice.messages(in: room, from: botID, containing: relayedText).last {
            $0.body?.contains(relayedText) == true
          })
        await world.forumState.removeBookmark(user: 1001, thread: Self.devThread)
        await world.forumState.clearRequests()

        // alice's encrypted chat line, made a reply to the relay in the clear envelope.
        let words = "lol, as if anyone would post that"
        let line = try await alice.say(words, in: room, clearRelationTo: relay.eventID)
        let preview = try #require(
          try await alice.messages(in: room, from: botID, containing: "as the bot account").last {
            $0.replyTo == line
          }, "the line read as a reply to the relay")
        #expect(preview.decrypted && !preview.insecure)
        let body = preview.body ?? ""
        #expect(body.contains("> \(words)"), "\(body)")
        #expect(body.hasSuffix(MatrixIntegrationTests.MatrixReplyAcceptanceTests.commandOnlyHow), "\(body)")

        // The server's ✅ in her name, in clear as Element Web sends it.
        let forged = try await alice.react(to: preview.eventID, key: "✅", in: room, encrypted: false)
        let refusal = try #require(
          try await alice.messages(in: room, from: botID, containing: "A reaction does not settle").last {
            $0.replyTo == forged
          }, "the ✅ is answered, and posts nothing")
        #expect(refusal.body == MatrixIntegrationTests.MatrixReplyAcceptanceTests.reactionRefusal)
        let acting = await MatrixIntegrationTests.HostileUsers.actingRequests(world)
        #expect(acting.isEmpty, "nothing reached the forum: \(acting)")

        // 🔖 on the relay, even encrypted from her verified session (key and target are in clear): told the command.
        let mark = try await alice.react(to: relay.eventID, key: "🔖", in: room)
        let told = try #require(
          try await alice.messages(in: room, from: botID, containing: "reactions can be forged").last {
            $0.replyTo == mark
          })
        #expect(
          told.body
            == "In an encrypted room reactions can be forged by the server, so 🔖 does nothing here: use "
            + "!bookmark \(Self.devThread) instead.")
        #expect(await world.forumState.bookmarks(user: 1001)[Self.devThread] == nil, "nothing bookmarked")
        #expect(await MatrixIntegrationTests.HostileUsers.actingRequests(world).isEmpty)

        // Her encrypted !confirm, from her verified session, posts it: the preview becomes "Posted".
        _ = try await alice.say("!confirm", in: room)
        let edits = try await alice.edits(in: room, from: botID) { $0.contains { $0.replaces == preview.eventID } }
        let edit = try #require(edits.last { $0.replaces == preview.eventID })
        #expect(edit.decrypted && edit.secure)
        #expect(edit.content["m.new_content"]?["body"]?.stringValue?.hasPrefix("Posted: ") == true)
        let replies = await world.forumState.requests().filter { $0.method == "POST" && $0.path == "/newreply.php" }
          .compactMap { $0.formValue("message") }
        #expect(replies.count == 1, "one post: \(replies)")
        #expect(replies.first?.hasSuffix(words) == true && replies.first?.contains("post=\"\(postID)\"") == true)
      }
    }
  }
}
