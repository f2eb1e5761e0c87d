import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import MatrixTransport
import Testing

extension MatrixIntegrationTests.ElementPolicy {
  /// Issue 34, edits and deletions: posts relayed to a plain room and an encrypted one are edited and deleted on the
  /// emulator; the next poll (for a new post, which reads that page anyway) replaces the edited relay in both rooms
  /// and takes the deleted one back with the reason. The encrypted room is read by a client with Element's policy.
  @Test("a post edited on the forum is edited in the rooms; a deleted one is removed with the reason")
  func editsAndDeletionsFollowed() async throws {
    try await MatrixTestWorld.with { world in
      let botID = world.botAccount.userID
      let owner = try await MatrixHuman.register("owner")
      let alice = try await MatrixE2EEHuman.register("alice")
      defer { Task { await alice.quit() } }
      try await MatrixBotProcess(world: world, configure: Self.configure).run { bot in
        let plain = try await bot.joinedRoom(owner: owner)
        let secret = try await alice.createEncryptedRoom(name: "secret", invite: [botID])
        try await bot.waitUntilJoined(secret)
        for room in [plain, secret] { try await bot.engine.watch(threadID: "3600001", room: bot.room(room)) }
        await bot.pollBookmarks()
        let kept = try await world.forumState.addPost(thread: 3_600_001, author: 1002, body: "The first version.")
        let gone = try await world.forumState.addPost(thread: 3_600_001, author: 1003, body: "Soon to be gone.")
        await bot.pollBookmarks()
        _ = try await bot.waitUntilOutboxDelivered()
        let relays = try await bot.outbox().filter { $0.kind == .post }
        let goneRelays = relays.filter { $0.postID == String(gone) }.compactMap(\.receipt)
        #expect(goneRelays.count == 2)

        try await world.forumState.editPost(kept, body: .bbcode("The second version, with a fix."))
        try await world.forumState.deletePost(gone)
        // Two new posts: the thread list then shows it grew, whatever minute the deletion and the posts fall in.
        for text in ["Something new.", "And more."] {
          _ = try await world.forumState.addPost(thread: 3_600_001, author: 1002, body: text)
        }
        await bot.pollBookmarks()
        let rows = try await bot.waitUntilOutboxDelivered()
        #expect(rows.filter { $0.kind == .edit }.count == 2, "one edit per room")
        #expect(rows.filter { $0.kind == .redaction }.count == 2, "one removal per room")

        // The encrypted room, as Element shows it: the edit replaces the relay's text.
        let edits = try await alice.edits(in: secret, from: botID)
        let edit = try #require(edits.first)
        #expect(edit.decrypted && edit.secure)
        let newBody = try #require(edit.content["m.new_content"]?["body"]?.stringValue)
        #expect(newBody.contains("The second version, with a fix."), "\(newBody)")
        #expect(!newBody.contains("The first version"))
        // The plain room: the relay of the deleted post is redacted, with the reason.
        let plainRelay = try #require(relays.first { $0.postID == String(gone) && $0.room == plain }?.receipt)
        let event = try await owner.call("GET", ["rooms", plain, "event", plainRelay])
        #expect(event["content"] == [:], "the relay's content is gone")
        #expect(event["unsigned"]?["redacted_because"]?["content"]?["reason"] == "deleted on the forum")
        let history = try await alice.history(in: secret, from: botID).events
        let redacted = history.filter { goneRelays.contains($0.eventID) }
        #expect(redacted.count == 1 && redacted.allSatisfy { !$0.decrypted && $0.body == nil }, "\(redacted)")
      }
    }
  }
}
