import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import FakeForum
import Foundation
import MatrixTransport
import Testing

extension MatrixIntegrationTests.ElementPolicy {
  /// Issue 43, the hostile forum: one post links every picture an attacker would. The 33-byte PNG header claiming
  /// 4294967295 × 4294967295 pixels once stopped the bot at every start; a JPEG and a WebP claim absurd sizes too; a
  /// host answers after a minute; another redirects four times; a picture is named `@room.png`. The post goes to a
  /// plain room and an encrypted one (read by a client with Element's device policy). Each room reads the relay at
  /// once, then the one real picture as `image.png` mentioning nobody, then one edit saying beside each other link
  /// why it is not shown, in fixed words. A post made after it is relayed before the slow host's deadline: the
  /// relays never waited for the pictures, and the bot is alive.
  @Test("a post of hostile pictures: the bot lives, the relay does not wait, no one is pinged, fixed reasons")
  func hostilePictures() async throws {
    try await MatrixTestWorld.with { world in
      let botID = world.botAccount.userID
      let owner = try await MatrixHuman.register("owner")
      let alice = try await MatrixE2EEHuman.register("alice")
      defer { Task { await alice.quit() } }
      let configure = { (configuration: inout MatrixTransportConfiguration) in
        Self.configure(&configuration)
        configuration.images.allowPrivateNetworks = true
        configuration.images.perPost = 6
      }
      try await MatrixBotProcess(world: world, configure: configure).run { bot in
        let plain = try await bot.joinedRoom(owner: owner)
        let secret = try await alice.createEncryptedRoom(name: "hostile pictures", invite: [botID])
        try await bot.waitUntilJoined(secret)
        for room in [plain, secret] {
          try await bot.engine.subscriptions.watch(threadID: "3600003", room: bot.room(room))
        }
        await bot.pollBookmarks()
        let images = world.forumURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + "/images"
        let hostile = [
          "absurd.png", "absurd.jpg", "absurd.webp", "slow/60/desk.png", "redirect/4/desk.png", "@room.png",
        ]
        _ = try await world.forumState.addPost(
          thread: 3_600_003, author: 1002,
          body: "Look: " + hostile.map { "[img]\(images)/\($0)[/img]" }.joined(separator: " "))
        await bot.pollBookmarks()
        _ = try await bot.waitUntilOutboxDelivered()
        let relay = try #require(try await bot.outbox().first { $0.kind == .post && $0.room == plain }?.receipt)
        // The slow host is still being waited for (ten seconds): the next post goes out now all the same.
        _ = try await world.forumState.addPost(thread: 3_600_003, author: 1002, body: "And after the pictures.")
        await bot.pollBookmarks()

        let events = try await owner.waitForMessages(in: plain, timeout: .seconds(60)) { events in
          events.from(botID).contains { $0.replaces != nil }
        }.from(botID)
        let relayBody = try #require(events.first?.body)
        for name in hostile.dropLast() { #expect(relayBody.contains("\(images)/\(name)"), "every link kept: \(name)") }
        // The text of the last link has its `@room` defused (a word joiner after the @), as everywhere in a relay.
        #expect(relayBody.contains("\(images)/@\u{2060}room.png"), "\(relayBody)")
        #expect(!relayBody.contains("picture not shown"), "the relay went out before its pictures: \(relayBody)")
        let after = try #require(events.firstIndex { $0.body?.contains("And after the pictures.") == true })
        let editIndex = try #require(events.firstIndex { $0.replaces == relay })
        #expect(after < editIndex, "the next relay did not wait for the slow picture host")
        let edited = try #require(events[editIndex].content["m.new_content"]?["body"]?.stringValue)
        #expect(edited.contains("absurd.png (picture not shown: too large)"), "\(edited)")
        #expect(edited.contains("absurd.jpg (picture not shown: too large)"), "\(edited)")
        #expect(edited.contains("absurd.webp (picture not shown: too large)"), "\(edited)")
        #expect(edited.contains("slow/60/desk.png (picture not shown: its server took too long)"), "\(edited)")
        #expect(edited.contains("redirect/4/desk.png (picture not shown: its server did not give it)"), "\(edited)")
        #expect(!edited.contains("@room.png (picture not shown"), "\(edited)")
        let pictures = events.filter { $0.msgtype == "m.image" }
        #expect(pictures.count == 1, "only @room.png is a picture")
        let picture = try #require(pictures.first)
        #expect(picture.body == "image.png", "named by its type, not by the poster's file name")
        #expect(picture.content["m.mentions"] == JSONValue.object([:]), "an m.image mentions nobody")
        #expect(picture.replyTo == relay)
        #expect(try await owner.download(try #require(picture.content["url"]?.stringValue)) == FakeImages.desk)
        let requests = await world.forumState.requests().filter { $0.path.hasPrefix("/images/") }
        #expect(
          requests.filter { $0.path.hasSuffix("absurd.png") }.count == 1,
          "fetched once: its failure is remembered for the other room")

        // The encrypted room, as Element reads it: the same, decrypted.
        let seen = try await alice.messages(in: secret, from: botID, count: 4, timeout: 60)
        #expect(seen.allSatisfy { $0.decrypted }, "nothing undecryptable")
        let encryptedPicture = try #require(seen.first { $0.content["msgtype"] == "m.image" })
        #expect(encryptedPicture.content["body"] == "image.png")
        #expect(encryptedPicture.content["m.mentions"] == JSONValue.object([:]))
        let file = try #require(encryptedPicture.content["file"])
        let stored = try await owner.download(try #require(file["url"]?.stringValue))
        #expect(try EncryptedAttachment.decrypt(stored, file: file) == FakeImages.desk)
        let edits = try await alice.edits(in: secret, from: botID, timeout: .seconds(30))
        let encryptedEdit = try #require(edits.first?.content["m.new_content"]?["body"]?.stringValue)
        #expect(encryptedEdit.contains("absurd.png (picture not shown: too large)"), "\(encryptedEdit)")
      }
    }
  }
}
