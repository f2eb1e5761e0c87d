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
        for room in [plain, secret] {
          try await bot.engine.subscriptions.watch(threadID: "3600001", room: bot.room(room))
        }
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

extension MatrixIntegrationTests.ElementPolicy {
  /// Issue 34, history for those who join later (MSC4268, spec v1.19): in an encrypted room whose history is shared,
  /// the bot's room keys say so, so a member's client can hand them to someone invited after ten relays, who then
  /// reads all ten. In a room whose history is for joined members only, the same handover carries none of the bot's
  /// keys, and the newcomer reads nothing from before.
  @Test("a member invited after ten relays reads them with the keys the inviter hands over, where history is shared")
  func historyForLaterMembers() async throws {
    try await MatrixTestWorld.with { world in
      let botID = world.botAccount.userID
      let alice = try await MatrixE2EEHuman.register("alice")
      let carol = try await MatrixE2EEHuman.register("carol")
      defer {
        Task {
          await alice.quit()
          await carol.quit()
        }
      }
      try await MatrixBotProcess(world: world, configure: Self.configure).run { bot in
        let shared = try await alice.createEncryptedRoom(name: "shared", invite: [botID], history: "shared")
        let joined = try await alice.createEncryptedRoom(name: "joined", invite: [botID], history: "joined")
        for room in [shared, joined] {
          try await bot.waitUntilJoined(room)
          try await bot.engine.subscriptions.watch(threadID: "3600001", room: bot.room(room))
        }
        await bot.pollBookmarks()
        for number in 1...10 {
          _ = try await world.forumState.addPost(thread: 3_600_001, author: 1002, body: "Earlier post \(number).")
        }
        await bot.pollBookmarks()
        _ = try await bot.waitUntilOutboxDelivered()

        // Shared history: every session of the bot's relays goes into the bundle, and Carol reads all ten.
        let aliceSees = try await alice.history(in: shared, from: botID).events
        #expect(aliceSees.filter { $0.body?.contains("Earlier post") ?? false }.count == 10, "\(aliceSees)")
        let botSessions = Set(aliceSees.compactMap(\.sessionID))
        #expect(!botSessions.isEmpty)
        let handover = try await alice.inviteWithHistory(carol.userID, to: shared)
        #expect(handover.devices == 1, "Carol's one cross-signed device gets the bundle")
        #expect(botSessions.isSubset(of: Set(handover.shared)), "\(handover)")
        try await carol.join(shared)
        let accepted = try await carol.acceptHistory(in: shared, from: alice.userID)
        #expect(botSessions.isSubset(of: Set(accepted.imported)))
        let carolSees = try await carol.history(in: shared, from: botID).events
        let earlier = carolSees.filter { $0.body?.contains("Earlier post") ?? false }
        #expect(earlier.count == 10, "\(carolSees)")
        #expect(earlier.allSatisfy { $0.decrypted && $0.secure }, "\(earlier)")
        #expect(carolSees.allSatisfy { $0.decrypted }, "nothing Carol was handed stays unreadable: \(carolSees)")

        // History for joined members only: the bot's keys say it is not shared, so they are withheld.
        let joinedSessions = Set(try await alice.history(in: joined, from: botID).events.compactMap(\.sessionID))
        #expect(!joinedSessions.isEmpty)
        let refused = try await alice.inviteWithHistory(carol.userID, to: joined)
        #expect(Set(refused.shared).isDisjoint(with: joinedSessions), "\(refused)")
        #expect(joinedSessions.isSubset(of: Set(refused.withheld)), "\(refused)")
        try await carol.join(joined)
        let nothing = try await carol.acceptHistory(in: joined, from: alice.userID)
        #expect(Set(nothing.imported).isDisjoint(with: joinedSessions))
        let before = try await carol.history(in: joined, from: botID).events
        #expect(before.allSatisfy { !$0.decrypted }, "\(before)")
      }
    }
  }
}
