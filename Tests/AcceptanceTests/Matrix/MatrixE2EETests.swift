import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

@testable import MatrixTransport

extension MatrixIntegrationTests.HostileChain {
  /// With a pickle key the bot has its own encrypting device: a real E2EE client (matrix-nio with libolm) talks to it
  /// in encrypted rooms and reads what it says there.
  @Suite(
    "end-to-end encryption with a real client", .serialized,
    .enabled(if: MatrixE2EEHuman.isAvailable, MatrixE2EEHuman.skipReason))
  struct EndToEnd {
    static let devThread = 3_600_001

    static func configure(_ configuration: inout MatrixTransportConfiguration) {
      configuration.pickleKey = "test pickle key"
      configuration.undecryptableWaitSeconds = 1
    }

    /// The bot's devices and their ed25519 keys, as another user's `/keys/query` shows them.
    static func deviceKeys(of bot: String, asking human: MatrixHuman) async throws -> [String: String] {
      let answer = try await MatrixHuman.raw(
        "POST", MatrixHuman.path(["_matrix", "client", "v3", "keys", "query"]),
        body: ["device_keys": [bot: []]], token: human.accessToken)
      var keys: [String: String] = [:]
      for (device, info) in answer.json["device_keys"]?[bot]?.objectValue ?? [:] {
        keys[device] = info["keys"]?["ed25519:\(device)"]?.stringValue
      }
      return keys
    }

    /// An encrypted !help is answered encrypted; relays decrypt to the plain room's content; a new member reads the
    /// next relay; after a restart the same device keys keep working; an unreadable message is reported once.
    @Test("an encrypted room, end to end, across a restart")
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
        let first = try MatrixBotProcess(world: world, configure: Self.configure)
        let (room, keys) = try await first.run { bot in
          let room = try await alice.createEncryptedRoom(name: "secret", invite: [botID])
          try await bot.waitUntilJoined(room)
          let plain = try await bot.joinedRoom(owner: alice.account, name: "plain")
          #expect(bot.transport.isEncryptionEnabled)

          // A command, encrypted both ways, answered as in a plain room.
          let command = try await alice.say("!help", in: room)
          let answers = try await alice.messages(in: room, from: botID, count: 1)
          let answer = try #require(answers.first, "the bot answered in the encrypted room")
          #expect(answer.decrypted)
          #expect(answer.msgtype == "m.notice")
          #expect(answer.replyTo == command)
          let plainCommand = try await alice.account.say("!help", in: plain)
          let plainEvents = try await alice.account.waitForMessages(in: plain) {
            $0.contains { $0.replyTo == plainCommand }
          }
          let plainAnswer = try #require(plainEvents.first { $0.replyTo == plainCommand })
          #expect(answer.body == plainAnswer.body)
          #expect(answer.formattedBody == plainAnswer.formattedBody)
          #expect(try await alice.account.messages(in: room).from(botID).isEmpty, "nothing in clear text")
          #expect(await bot.transport.unreadableRooms().isEmpty)

          // A relayed post: the same content inside as in the plain room.
          for target in [room, plain] {
            try await bot.engine.subscriptions.subscribe(room: bot.room(target), to: .bookmarks)
          }
          await bot.pollBookmarks()
          _ = try await world.forumState.addPost(
            thread: Self.devThread, author: 1002, body: "Hello [b]secret[/b] @room")
          await bot.pollBookmarks()
          let relays = try await alice.messages(in: room, from: botID, count: 2)
          let relay = try #require(relays.count == 2 ? relays[1] : nil, "the relay arrived in the encrypted room")
          let plainRelays = try await alice.account.waitForMessages(in: plain) { $0.from(botID).count == 2 }
          let plainRelay = try #require(plainRelays.from(botID).last)
          #expect(relay.decrypted)
          #expect(relay.content == plainRelay.content, "same content inside as in the plain room")
          #expect(relay.body?.contains("Hello secret") == true)
          #expect(relay.body?.contains("@room") == false)

          // A second member joins and reads the next relay.
          let bobID = await bob.userID
          try await alice.invite(bobID, to: room)
          try await bob.join(room)
          // The room key goes to the members the bot knows: wait until its sync has shown bob's join.
          try await waitUntil("the bot saw bob join", timeout: .seconds(20), every: .milliseconds(50)) {
            bot.transport.hasSeenJoin(of: bobID, in: room)
          }
          _ = try await world.forumState.addPost(thread: Self.devThread, author: 1002, body: "for bob too")
          await bot.pollBookmarks()
          let forBob = try await bob.messages(in: room, from: botID, containing: "for bob too")
          let bobRelay = try #require(forBob.last, "bob received the relay")
          #expect(bobRelay.decrypted)
          #expect(bobRelay.body?.contains("for bob too") == true)
          let earlier = forBob.dropLast().filter { !$0.undecryptable }
          #expect(earlier.isEmpty, "what was said before bob joined stays unreadable to him")
          let fingerprint = try #require(await bot.transport.encryptionFingerprint())
          let keys = try await Self.deviceKeys(of: botID, asking: alice.account)
          #expect(keys.count == 1)
          #expect(keys.values.first == fingerprint)
          return (room, keys)
        }

        // Restarted: the same device and keys, commands still read and answered.
        let second = try MatrixBotProcess(world: world, configure: Self.configure)
        try await second.run { bot in
          let before = try await alice.messages(in: room, from: botID, count: 3).count
          let command = try await alice.say("!help", in: room)
          let answers = try await alice.messages(in: room, from: botID, count: before + 1)
          let answer = try #require(answers.last)
          #expect(answer.decrypted)
          #expect(answer.replyTo == command)
          #expect(try await Self.deviceKeys(of: botID, asking: alice.account) == keys, "no new device keys")
          #expect(await bot.transport.encryptionFingerprint() == keys.values.first)

          // An encrypted message whose key never comes: the room is told once.
          let bogus: JSONValue = [
            "algorithm": "m.megolm.v1.aes-sha2", "ciphertext": "AwgAEnABm0kz3e2tLXvZ9pHc6m4Qn8WmG1Hh7hLr8tq",
            "session_id": "NoSuchSession", "device_id": "NOPE",
            "sender_key": "cY0WmS8dL3kAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
          ]
          try await alice.account.send("m.room.encrypted", content: bogus, in: room)
          try await alice.account.send("m.room.encrypted", content: bogus, in: room)
          let told = try await alice.messages(in: room, from: botID, count: before + 2)
          let notice = try #require(told.count == before + 2 ? told.last : nil, "the room was told")
          #expect(notice.body?.contains("could not read an encrypted message") == true)
          // Waited out, not synchronised: the second undecryptable event is answered by nothing at all when the bot
          // works, so no event marks the moment the bot has read it.
          try await Task.sleep(for: .seconds(2))
          #expect(
            try await alice.messages(in: room, from: botID, count: before + 2, timeout: 0).count == before + 2,
            "told once")
        }
      }
    }

    @Test("a crash after the homeserver accepted an encrypted event: the resend is the same event, read once")
    func crashBeforeMarking() async throws {
      try await MatrixTestWorld.with { world in
        let botID = world.botAccount.userID
        let alice = try await MatrixE2EEHuman.register("alice")
        let first = try MatrixBotProcess(
          world: world, configure: Self.configure,
          dispatchVia: { RecordingTransport(forwardingTo: $0, failingAfterSendWith: CancellationError()) },
          runsDispatcher: false)
        let (room, sentID) = try await first.run { bot in
          let room = try await alice.createEncryptedRoom(name: "secret", invite: [botID])
          try await bot.waitUntilJoined(room)
          try await bot.engine.subscriptions.subscribe(room: bot.room(room), to: .bookmarks)
          await bot.pollBookmarks()
          _ = try await world.forumState.addPost(thread: Self.devThread, author: 1002, body: "encrypted exactly once")
          await bot.pollBookmarks()
          await bot.dispatcher.drain()
          #expect(try await bot.outbox().map(\.state) == [.pending], "the crash left the row unmarked")
          let seen = try await alice.messages(in: room, from: botID, containing: "encrypted exactly once")
          return (room, seen.last?.eventID)
        }
        let eventID = try #require(sentID, "the homeserver accepted the event before the crash")

        let second = try MatrixBotProcess(world: world, configure: Self.configure)
        try await second.run { bot in
          let rows = try await bot.waitUntilOutboxDelivered()
          #expect(rows.map(\.state) == [.delivered])
          #expect(rows.first?.receipt == eventID, "the resend returned the event the homeserver already had")
          // A second event, if there were one, would show within the wait for it.
          let seen = try await alice.messages(in: room, from: botID, count: 2, timeout: 2)
          #expect(seen.count == 1, "one event in the room")
          #expect(seen.filter { !$0.decrypted }.isEmpty)
        }
        await alice.quit()
      }
    }
  }
}

extension MatrixTransport {
  /// Whether the transport's syncs have shown `user` joined to `room` (the directory keeps the display name of
  /// every joined member, from the join itself).
  fileprivate func hasSeenJoin(of user: String, in room: String) -> Bool {
    state.withLock { $0.rooms.directory.displayNames[room]?[user] != nil }
  }
}
