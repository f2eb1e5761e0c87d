import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import FakeForum
import Foundation
import MatrixTransport
import Testing

extension MatrixIntegrationTests.ElementPolicy {
  /// Issue 34, pictures: a post with four pictures (a `[timg]` desk, an animated cat, one with too many pixels, one
  /// page named .jpg) is relayed to a plain room and an encrypted one. Each room gets the relay (every link kept) and
  /// then two `m.image` events answering it: the desk asks to be drawn as a thumbnail, the cat is the emulator's
  /// animated GIF byte for byte. In the encrypted room the picture is an encrypted attachment whose stored bytes are
  /// not the picture, and which a client with Element's policy decrypts to the emulator's exact bytes. A room set to
  /// `links` gets the relay alone, and nothing is downloaded for it.
  @Test("pictures of a relayed post are shown in both rooms, encrypted in the encrypted one; the rest stay links")
  func picturesInRooms() async throws {
    try await MatrixTestWorld.with { world in
      let botID = world.botAccount.userID
      let owner = try await MatrixHuman.register("owner")
      let alice = try await MatrixE2EEHuman.register("alice")
      defer { Task { await alice.quit() } }
      let aliasName = "quiet\(UInt32.random(in: 0...UInt32.max))"
      let quiet = try await owner.createRoom(name: "quiet", invite: [botID], alias: aliasName)
      let configure = { (configuration: inout MatrixTransportConfiguration) in
        Self.configure(&configuration)
        configuration.images.allowPrivateNetworks = true
      }
      try await MatrixBotProcess(world: world, configure: configure).run { bot in
        let plain = try await bot.joinedRoom(owner: owner)
        let secret = try await alice.createEncryptedRoom(name: "pictures", invite: [botID])
        try await bot.waitUntilJoined(secret)
        try await bot.waitUntilJoined(quiet)
        // The room's own setting, by command (`pictures` in rooms[] seeds the same).
        let ask = try await owner.say("!pictures links", in: quiet)
        let answer = try await owner.waitForMessages(in: quiet) { $0.contains { $0.replyTo == ask } }
          .first { $0.replyTo == ask }
        #expect(
          answer?.body == "Pictures in relayed posts stay links here; nothing is downloaded for this room.",
          "\(answer?.body ?? "no answer")")
        for room in [plain, secret, quiet] {
          try await bot.engine.subscriptions.watch(threadID: "3600003", room: bot.room(room))
        }
        await bot.pollBookmarks()
        let images = world.forumURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + "/images"
        _ = try await world.forumState.addPost(
          thread: 3_600_003, author: 1002,
          body: "My desk: [timg]\(images)/desk.png[/timg] my cat [img]\(images)/cat.gif[/img] "
            + "[img]\(images)/huge.png[/img] [img]\(images)/fake.jpg[/img]")
        await bot.pollBookmarks()
        _ = try await bot.waitUntilOutboxDelivered()
        let relay = try #require(try await bot.outbox().first { $0.kind == .post && $0.room == plain }?.receipt)

        // The plain room: the relay went out at once, every link in it; the pictures followed, answering it, and
        // one edit says beside each link not shown why.
        let events = try await owner.waitForMessages(in: plain) { $0.from(botID).count >= 4 }.from(botID)
        let relayBody = try #require(events.first?.body)
        #expect(relayBody.contains("\(images)/fake.jpg"), "the relay keeps every link")
        #expect(!relayBody.contains("picture not shown"), "the relay did not wait for its pictures: \(relayBody)")
        let edit = try #require(events.first { $0.replaces == relay })
        let editedBody = try #require(edit.content["m.new_content"]?["body"]?.stringValue)
        #expect(editedBody.contains("huge.png (picture not shown: too large)"), "\(editedBody)")
        #expect(editedBody.contains("fake.jpg (picture not shown: not a picture)"), "\(editedBody)")
        #expect(!editedBody.contains("desk.png (picture not shown"))
        let pictures = events.filter { $0.msgtype == "m.image" }
        #expect(pictures.count == 2, "desk and cat; the huge one and the page stay links")
        #expect(pictures.allSatisfy { $0.replyTo == relay })
        let desk = try #require(pictures.first)
        #expect(desk.content["info"]?["mimetype"] == "image/png")
        #expect(
          desk.content["info"]?["w"] == 200 && desk.content["info"]?["h"] == 150,
          "a [timg] asks to be drawn shrunk, as on the forum: \(desk.content)")
        #expect(try await owner.download(try #require(desk.content["url"]?.stringValue)) == FakeImages.desk)
        let cat = try #require(pictures.last)
        #expect(cat.content["info"]?["mimetype"] == "image/gif")
        #expect(cat.content["info"]?["w"] == 48 && cat.content["info"]?["h"] == 48)
        #expect(
          try await owner.download(try #require(cat.content["url"]?.stringValue)) == FakeImages.cat,
          "the animated GIF as it is, every frame")

        // The room set to links: the relay with its links, no pictures.
        let quietEvents = try await owner.waitForMessages(in: quiet) {
          $0.from(botID).contains { $0.replyTo != ask }
        }.from(botID).filter { $0.replyTo != ask }
        #expect(quietEvents.count == 1 && quietEvents.allSatisfy { $0.msgtype != "m.image" }, "\(quietEvents)")
        let quietBody = try #require(quietEvents.first?.body)
        #expect(quietBody.contains("\(images)/desk.png") && !quietBody.contains("picture not shown"), "\(quietBody)")

        // The encrypted room, as Element reads it.
        let shown = try await alice.messages(in: secret, from: botID, count: 4)
        let encryptedPictures = shown.filter { $0.content["msgtype"] == "m.image" }
        #expect(encryptedPictures.count == 2)
        let file = try #require(encryptedPictures.first?.content["file"])
        #expect(encryptedPictures.first?.content["url"] == nil, "no clear URL in an encrypted room")
        let stored = try await owner.download(try #require(file["url"]?.stringValue))
        #expect(stored != FakeImages.desk, "the homeserver holds ciphertext")
        #expect(try EncryptedAttachment.decrypt(stored, file: file) == FakeImages.desk)
      }
    }
  }

  /// A post with 50 pictures: the post's budget is shown, and no more is fetched from the forum's side.
  @Test("a post with 50 pictures spends only the post's budget: that many shown, that many fetched")
  func pictureBudget() async throws {
    try await MatrixTestWorld.with { world in
      let botID = world.botAccount.userID
      let owner = try await MatrixHuman.register("owner")
      let configure = { (configuration: inout MatrixTransportConfiguration) in
        configuration.images.allowPrivateNetworks = true
        configuration.images.perPost = 3
      }
      try await MatrixBotProcess(world: world, configure: configure).run { bot in
        let plain = try await bot.joinedRoom(owner: owner)
        try await bot.engine.subscriptions.watch(threadID: "3600003", room: bot.room(plain))
        await bot.pollBookmarks()
        let images = world.forumURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + "/images"
        let body = (1...50).map { "[img]\(images)/small.png?n=\($0)[/img]" }.joined(separator: " ")
        await world.forumState.clearRequests()
        _ = try await world.forumState.addPost(thread: 3_600_003, author: 1002, body: "Fifty: " + body)
        await bot.pollBookmarks()
        _ = try await bot.waitUntilOutboxDelivered()
        let events = try await owner.waitForMessages(in: plain) { $0.from(botID).count >= 4 }.from(botID)
        // The three pictures are the whole of the relay's follow-up (all shown, so no edit comes): with them in, a
        // read is final.
        let settled = try await owner.waitForMessages(in: plain) { $0.from(botID).count >= 4 }.from(botID)
        let shown = events.filter { $0.msgtype == "m.image" }
        #expect(shown.count == 3)
        #expect(Set(shown.compactMap { $0.content["url"]?.stringValue }).count == 1, "the same bytes, uploaded once")
        #expect(settled.count == 4, "the relay and three pictures, nothing more")
        let fetched = await world.forumState.requests().filter { $0.path.hasPrefix("/images/") }
        #expect(fetched.count == 3, "\(fetched.map(\.path))")
      }
    }
  }
}
