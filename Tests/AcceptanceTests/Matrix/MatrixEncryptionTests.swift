import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import MatrixModel
import MatrixTransport
import Testing

extension MatrixIntegrationTests.PeopleChain {
  /// The bot's encryption is off: in an encrypted room it says once that it cannot take part there, and sends
  /// nothing else there (no relay goes out in clear text).
  @Suite("end-to-end encrypted rooms", .serialized)
  struct Encryption {
    static let encryptionState: JSONValue = [
      "type": "m.room.encryption", "state_key": "", "content": ["algorithm": "m.megolm.v1.aes-sha2"],
    ]

    /// Ciphertext-shaped content; the bot can never decrypt it anyway.
    static let ciphertext: JSONValue = [
      "algorithm": "m.megolm.v1.aes-sha2", "ciphertext": "AwgAEnABm0kz3e2tLXvZ9pHc6m4Qn8WmG1Hh7hLr8tq",
      "session_id": "Xk2fEZpQ4cM", "device_id": "HUMANDEVICE", "sender_key": "cY0WmS8dL3k",
    ]

    static func notices(_ events: [MatrixEvent], from bot: String) -> [MatrixEvent] {
      events.from(bot).filter { $0.body == MatrixEncryptionNotice.text }
    }

    /// A command in an unencrypted room, answered: every sync before it (in any room) was handled.
    static func barrier(_ owner: MatrixHuman, in room: String) async throws {
      let marker = try await owner.say("!help", in: room)
      let events = try await owner.waitForMessages(in: room) { $0.contains { $0.replyTo == marker } }
      try #require(events.contains { $0.replyTo == marker }, "the bot answered the marker command")
    }

    @Test("an encrypted room gets exactly one notice, across encrypted traffic and a restart; a plain room none")
    func oneNotice() async throws {
      try await MatrixTestWorld.with { world in
        let owner = try await MatrixHuman.register("owner")
        let botID = world.botAccount.userID
        let first = try MatrixBotProcess(world: world)
        let (encrypted, plain) = try await first.run { bot in
          let plain = try await bot.joinedRoom(owner: owner, name: "plain")
          let encrypted = try await owner.createRoom(
            name: "secret", invite: [botID], initialState: [Self.encryptionState])
          try await bot.waitUntilJoined(encrypted)
          let events = try await owner.waitForMessages(in: encrypted) { !Self.notices($0, from: botID).isEmpty }
          let notices = Self.notices(events, from: botID)
          try #require(notices.count == 1)
          #expect(notices[0].msgtype == "m.notice")
          #expect(notices[0].body == MatrixEncryptionNotice.text)
          #expect(bot.transport.encryptedRooms == [encrypted])

          // Encrypted traffic (maybe a command) afterwards: no second notice, nothing run.
          try await owner.send("m.room.encrypted", content: Self.ciphertext, in: encrypted)
          try await Self.barrier(owner, in: plain)
          #expect(try await owner.messages(in: encrypted).from(botID).count == 1, "only the notice")

          // A relay for both rooms: the plain room gets it, the encrypted room nothing in clear text.
          for target in [encrypted, plain] {
            try await bot.engine.subscriptions.subscribe(room: bot.room(target), to: .bookmarks)
          }
          await bot.pollBookmarks()
          _ = try await world.forumState.addPost(thread: 3_600_001, author: 1002, body: "never in clear text")
          await bot.pollBookmarks()
          _ = try await owner.waitForMessages(in: plain) {
            $0.from(botID).contains { $0.body?.contains("never in clear text") == true }
          }
          try await Self.barrier(owner, in: plain)
          #expect(try await owner.messages(in: encrypted).from(botID).count == 1, "still only the notice")
          let waiting = try await bot.outbox().filter { $0.room == encrypted && $0.state == .pending }
          #expect(waiting.count == 1, "the relay waits in the outbox for encryption to come on")
          return (encrypted, plain)
        }

        let second = try MatrixBotProcess(world: world)
        // The homeserver's transaction-id deduplication also hides a resent notice, but only for a while; what keeps
        // the notice to once per room for good is the transport's memory. A room it remembers gets none.
        let remembered = try await owner.createRoom(name: "remembered", initialState: [Self.encryptionState])
        try await second.stateStore.setValue("$earlier", for: "encryption-notice:\(remembered)")
        try await second.run { bot in
          #expect(bot.transport.encryptedRooms == [encrypted], "the set survives a restart")
          try await owner.send("m.room.encrypted", content: Self.ciphertext, in: encrypted)
          try await owner.invite(botID, to: remembered)
          try await bot.waitUntilJoined(remembered)
          try await owner.send("m.room.encrypted", content: Self.ciphertext, in: remembered)
          try await Self.barrier(owner, in: plain)
          #expect(try await owner.messages(in: encrypted).from(botID).count == 1, "still only the notice")
          #expect(try await owner.messages(in: remembered).from(botID).isEmpty)
          #expect(bot.transport.encryptedRooms == [encrypted, remembered])
          #expect(Self.notices(try await owner.messages(in: plain), from: botID).isEmpty)
        }
      }
    }

    @Test("an encrypted room joined before the first run: old encrypted history is skipped, the state still counts")
    func firstSyncCountsState() async throws {
      try await MatrixTestWorld.with { world in
        let owner = try await MatrixHuman.register("owner")
        let botID = world.botAccount.userID
        let encrypted = try await owner.createRoom(
          name: "secret", invite: [botID], initialState: [Self.encryptionState])
        let plain = try await owner.createRoom(name: "plain", invite: [botID])
        for room in [encrypted, plain] {
          _ = try await MatrixHuman.raw(
            "POST", MatrixHuman.path(["_matrix", "client", "v3", "join", room]), body: [:],
            token: world.botAccount.accessToken)
        }
        try await owner.send("m.room.encrypted", content: Self.ciphertext, in: encrypted)
        let bot = try MatrixBotProcess(world: world)
        try await bot.run { bot in
          let events = try await owner.waitForMessages(in: encrypted) { !Self.notices($0, from: botID).isEmpty }
          #expect(Self.notices(events, from: botID).count == 1)
          try await Self.barrier(owner, in: plain)
          #expect(try await owner.messages(in: encrypted).from(botID).count == 1)
          #expect(bot.transport.encryptedRooms == [encrypted])
        }
      }
    }
  }
}
