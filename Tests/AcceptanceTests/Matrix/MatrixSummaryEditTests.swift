import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import MatrixTransport
import Testing

extension MatrixIntegrationTests.PeopleChain {
  /// Summary mode end to end: the real engine and dispatcher, the emulator and Synapse. A thread that keeps getting
  /// posts updates its burst message through an `m.replace` edit instead of adding a message per poll cycle.
  @Suite("summary edits", .serialized)
  struct MatrixSummaryEditTests {
    static let devThread = 3_600_001

    @Test("two bursts of posts: one m.notice plus an m.replace edit carrying the running count")
    func twoBurstsEditTheFirstMessage() async throws {
      try await MatrixTestWorld.with { world in
        let owner = try await MatrixHuman.register("owner")
        let bot = try MatrixBotProcess(world: world)
        try await bot.run { bot in
          let room = try await bot.joinedRoom(owner: owner)
          try await bot.engine.subscriptions.subscribe(room: bot.room(room), to: .bookmarks)
          try await bot.engine.roomSettings.update(room: bot.room(room)) { $0.mode = .summary(threshold: 2) }
          await bot.pollBookmarks()  // seeds the cursor: nothing old is sent

          for n in 1...3 {
            _ = try await world.forumState.addPost(thread: Self.devThread, author: 1002, body: "first burst \(n)")
          }
          await bot.pollBookmarks()
          let firstBurst = try await owner.waitForMessages(in: room) { !$0.from(world.botAccount.userID).isEmpty }
          let original = try #require(firstBurst.from(world.botAccount.userID).first)
          let originalID = try #require(original.eventID)
          #expect(original.msgtype == "m.notice")
          #expect(original.body?.hasPrefix("3 new posts in “AwfulBot development thread") == true)
          #expect(original.content["m.relates_to"] == nil)
          _ = try await bot.waitUntilOutboxDelivered()

          for n in 1...4 {
            _ = try await world.forumState.addPost(
              thread: Self.devThread, author: n.isMultiple(of: 2) ? 1002 : 1003, body: "second burst \(n)")
          }
          await bot.pollBookmarks()
          let events = try await owner.waitForMessages(in: room) { $0.from(world.botAccount.userID).count >= 2 }
          let sent = events.from(world.botAccount.userID)
          #expect(sent.count == 2, "one original message and one edit, nothing else")
          let edit = try #require(sent.last)
          #expect(edit.msgtype == "m.notice")
          #expect(edit.content["m.relates_to"] == ["rel_type": "m.replace", "event_id": .string(originalID)])
          let newBody = try #require(edit.content["m.new_content"]?["body"]?.stringValue)
          #expect(newBody.hasPrefix("7 new posts in “AwfulBot development thread"))
          #expect(newBody.contains("” by Pickled Tink and Zoë Québec (latest by "))
          #expect(edit.content["m.new_content"]?["msgtype"] == "m.notice")
          let newHTML = try #require(edit.content["m.new_content"]?["formatted_body"]?.stringValue)
          #expect(newHTML.hasPrefix("7 new posts in "))
          // Clients that do not show edits see the fallback body as a message of its own.
          #expect(edit.body == "* " + newBody)

          // The homeserver bundles the edit with the original, so clients show the new text in its place.
          let stored = try await owner.call("GET", ["rooms", room, "event", originalID])
          let replacement = stored["unsigned"]?["m.relations"]?["m.replace"]?["event_id"]?.stringValue
          #expect(replacement == edit.eventID)

          let rows = try await bot.waitUntilOutboxDelivered()
          #expect(rows.map(\.kind.rawValue) == ["summary", "summary"])
          #expect(rows.allSatisfy { $0.state == .delivered })
          #expect(rows.last?.receipt == edit.eventID)
        }
      }
    }
  }
}
