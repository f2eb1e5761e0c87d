import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import MatrixTransport
import Testing

extension MatrixIntegrationTests.PeopleChain {
  @Suite("relayed posts", .serialized)
  struct Relays {
    static func summary(count: Int) -> PostSummary {
      PostSummary(
        threadTitle: "thread", threadLink: "https://forums.example/thread", count: count, authors: ["alice"],
        latestAuthor: "alice", latestLink: "https://forums.example/post", afterReplayCap: false)
    }

    static let devThread = 3_600_001

    @Test("a new post on the emulator arrives as exactly one m.notice in each subscribed room")
    func newPostInEachRoom() async throws {
      try await MatrixTestWorld.with { world in
        let owner = try await MatrixHuman.register("owner")
        let bot = try MatrixBotProcess(world: world)
        try await bot.run { bot in
          let first = try await bot.joinedRoom(owner: owner, name: "first")
          let second = try await bot.joinedRoom(owner: owner, name: "second")
          for room in [first, second] {
            try await bot.engine.subscriptions.subscribe(room: bot.room(room), to: .bookmarks)
          }
          await bot.pollBookmarks()  // seeds the cursors: nothing old is sent

          let started = ContinuousClock.now
          let postID = try await world.forumState.addPost(
            thread: Self.devThread, author: 1002, body: "Hello [b]chat[/b] @room, see https://example.com/x")
          await bot.pollBookmarks()
          for room in [first, second] {
            let events = try await owner.waitForMessages(in: room) { !$0.from(world.botAccount.userID).isEmpty }
            let relayed = events.from(world.botAccount.userID)
            #expect(relayed.count == 1, "exactly one message in \(room)")
            let event = try #require(relayed.first)
            #expect(event.msgtype == "m.notice")
            let body = try #require(event.body)
            #expect(body.contains("AwfulBot development thread"))
            #expect(body.contains("Pickled Tink"))
            #expect(body.contains("Hello chat"))
            #expect(body.contains("showthread.php?goto=post&postid=\(postID)") || body.contains("\(postID)"))
            #expect(!body.contains("@room"), "@room is defused")
            let html = try #require(event.formattedBody)
            #expect(event.content["format"] == "org.matrix.custom.html")
            #expect(html.contains("<b>chat</b>"))
            #expect(html.contains("<b>Pickled Tink</b>"))
            #expect(!html.contains("@room"))
            #expect(event.content["m.mentions"] == [:])
            #expect(event.content["com.beeper.linkpreviews"] == [])
          }
          print("relay latency (emulator post → both rooms, polled at once): \(ContinuousClock.now - started)")
          // Another cycle queues nothing, and nothing is left to send: no room can get a second message.
          let again = await bot.pollBookmarks()
          #expect(again.succeeded && again.queued == 0, "the next poll queued \(again.queued)")
          let rows = try await bot.waitUntilOutboxDelivered()
          #expect(rows.count == 2 && rows.allSatisfy { $0.state == .delivered }, "\(rows.map(\.state))")
          for room in [first, second] {
            #expect(try await owner.messages(in: room).from(world.botAccount.userID).count == 1)
          }
        }
      }
    }

    @Test("an edit replaces the burst message (m.replace), as summary mode does")
    func editReplacesBurstMessage() async throws {
      try await MatrixTestWorld.with { world in
        let owner = try await MatrixHuman.register("owner")
        let bot = try MatrixBotProcess(world: world)
        try await bot.run { bot in
          let room = try await bot.joinedRoom(owner: owner)
          let burst = try await bot.transport.send(
            OutgoingMessage(.summary(Self.summary(count: 2))),
            to: room, idempotencyKey: "burst-1")
          let edit = try await bot.transport.send(
            OutgoingMessage(.summary(Self.summary(count: 5)), replaces: burst.id),
            to: room, idempotencyKey: "burst-1-edit-1")
          let events = try await owner.waitForMessages(in: room) { $0.count >= 2 }
          let editEvent = try #require(events.first { $0.eventID == edit.id })
          #expect(editEvent.content["m.relates_to"] == ["rel_type": "m.replace", "event_id": .string(burst.id)])
          #expect(
            editEvent.content["m.new_content"]?["body"]
              == "5 new posts in “thread” by alice (latest by alice): https://forums.example/post")
          #expect(
            editEvent.content["m.new_content"]?["formatted_body"]
              == #"5 new posts in <b><a href="https://forums.example/thread">thread</a></b> by alice (<a href="https://forums.example/post">latest by alice</a>)"#
          )
          // The server bundles the edit with the original: clients show the new text.
          let original = try await owner.call("GET", ["rooms", room, "event", burst.id])
          let replacement = original["unsigned"]?["m.relations"]?["m.replace"]?["event_id"]?.stringValue
          #expect(replacement == edit.id)
        }
      }
    }

    @Test("posts of one forum thread go into one Matrix thread in rooms configured for threads")
    func threadsPerRoom() async throws {
      try await MatrixTestWorld.with { world in
        let owner = try await MatrixHuman.register("owner")
        let room = try await owner.createRoom(invite: [world.botAccount.userID])
        let bot = try MatrixBotProcess(world: world) { $0.threadRooms = [room] }
        try await bot.run { bot in
          try await bot.waitUntilJoined(room)
          #expect(bot.transport.capabilities.threads)
          try await bot.engine.subscriptions.subscribe(room: bot.room(room), to: .bookmarks)
          await bot.pollBookmarks()
          for n in 1...3 {
            _ = try await world.forumState.addPost(thread: Self.devThread, author: 1003, body: "threaded \(n)")
          }
          await bot.pollBookmarks()
          let events = try await owner.waitForMessages(in: room) { $0.from(world.botAccount.userID).count >= 3 }
          let relayed = events.from(world.botAccount.userID)
          #expect(relayed.count == 3)
          guard relayed.count == 3 else { return }
          #expect(relayed[0].content["m.relates_to"] == nil, "the first post is the thread root")
          for event in relayed.dropFirst() {
            #expect(event.content["m.relates_to"]?["rel_type"] == "m.thread")
            #expect(event.content["m.relates_to"]?["event_id"]?.stringValue == relayed[0].eventID)
          }
        }
      }
    }

    @Test("M_FORBIDDEN on send fails that room's rows with the reason")
    func forbiddenFailsRows() async throws {
      try await MatrixTestWorld.with { world in
        let owner = try await MatrixHuman.register("owner")
        let bot = try MatrixBotProcess(world: world)
        try await bot.run { bot in
          // A room the bot was never in: the homeserver refuses events there.
          let room = try await owner.createRoom()
          try await bot.engine.subscriptions.subscribe(room: bot.room(room), to: .bookmarks)
          await bot.pollBookmarks()
          _ = try await world.forumState.addPost(thread: Self.devThread, author: 1002, body: "nobody sees this")
          await bot.pollBookmarks()
          let rows = try await bot.waitUntilOutboxDelivered()
          let row = try #require(rows.first)
          #expect(row.state == .failed)
          #expect(row.lastError?.contains("M_FORBIDDEN") == true, "reason: \(row.lastError ?? "-")")
          #expect(row.attempts <= 1, "no retries for a permanent refusal")
        }
      }
    }
  }
}
