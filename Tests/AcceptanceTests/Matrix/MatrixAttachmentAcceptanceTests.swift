import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import FakeForum
import Foundation
import MatrixTransport
import Testing

extension MatrixIntegrationTests.ElementPolicy {
  /// Issue 44, the forum's own attachments: a post holds `<img src="attachment.php?attachmentid=N">` (relative, as the
  /// forum writes it), and the emulator gives the file to a logged-in session only. The relay goes to a plain room and
  /// an encrypted one (read by a client with Element's policy): each reads the relay with the attachment's absolute
  /// link, then an `m.image` answering it, the emulator's bytes exactly (decrypted in the encrypted room). The forum is
  /// asked once for both rooms, one `attachment.php` request with the session and no login between (each room kind
  /// gets its own upload of the same bytes); a third room of a kind already served asks nothing. Nothing went to the forum without the session, and no off-site fetch happened.
  @Test("a forum attachment is shown in a plain and an encrypted room, fetched once with the session")
  func attachmentInRooms() async throws {
    try await MatrixTestWorld.with { world in
      let botID = world.botAccount.userID
      let owner = try await MatrixHuman.register("owner")
      let alice = try await MatrixE2EEHuman.register("alice")
      defer { Task { await alice.quit() } }
      // Off-site pictures from loopback are refused: the attachment must not need that door.
      let configure = { (configuration: inout MatrixTransportConfiguration) in Self.configure(&configuration) }
      try await MatrixBotProcess(world: world, configure: configure).run { bot in
        let plain = try await bot.joinedRoom(owner: owner)
        let second = try await bot.joinedRoom(owner: owner, name: "second plain room")
        let secret = try await alice.createEncryptedRoom(name: "attachments", invite: [botID])
        try await bot.waitUntilJoined(secret)
        for room in [plain, secret] {
          try await bot.engine.subscriptions.watch(threadID: "3600003", room: bot.room(room))
        }
        await bot.pollBookmarks()
        let attachmentID = await world.forumState.addAttachment(bytes: FakeImages.desk, contentType: "image/png")
        await world.forumState.clearRequests()
        _ = try await world.forumState.addPost(
          thread: 3_600_003, author: 1002, body: "My desk: [img]attachment.php?attachmentid=\(attachmentID)[/img]")
        await bot.pollBookmarks()
        _ = try await bot.waitUntilOutboxDelivered()
        let relay = try #require(try await bot.outbox().first { $0.kind == .post && $0.room == plain }?.receipt)
        let link =
          world.forumURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
          + "/attachment.php?attachmentid=\(attachmentID)"

        let events = try await owner.waitForMessages(in: plain) { $0.from(botID).count >= 2 }.from(botID)
        let relayBody = try #require(events.first?.body)
        #expect(relayBody.contains("[image] \(link)"), "the relay keeps the absolute link: \(relayBody)")
        let pictures = events.filter { $0.msgtype == "m.image" }
        #expect(pictures.count == 1)
        let picture = try #require(pictures.first)
        #expect(picture.replyTo == relay)
        #expect(picture.body == "image.png")
        #expect(picture.content["info"]?["w"] == 320 && picture.content["info"]?["h"] == 240)
        #expect(try await owner.download(try #require(picture.content["url"]?.stringValue)) == FakeImages.desk)
        #expect(!events.contains { $0.replaces == relay }, "nothing to say: the picture was shown")

        let shown = try await alice.messages(in: secret, from: botID, count: 2)
        let encrypted = try #require(shown.first { $0.content["msgtype"] == "m.image" })
        #expect(encrypted.decrypted)
        #expect(encrypted.content["url"] == nil, "no clear URL in an encrypted room")
        let file = try #require(encrypted.content["file"])
        let stored = try await owner.download(try #require(file["url"]?.stringValue))
        #expect(stored != FakeImages.desk, "the homeserver holds ciphertext")
        #expect(try EncryptedAttachment.decrypt(stored, file: file) == FakeImages.desk)

        // The forum was asked once for both rooms, in one request with the session, and nothing else.
        let requests = await world.forumState.requests()
        let asked = requests.filter { $0.path == "/attachment.php" }
        #expect(asked.count == 1, "\(requests.map(\.path))")
        #expect(asked.allSatisfy { $0.cookieNames.contains("sessionhash") && $0.cookieNames.contains("bbuserid") })
        #expect(asked.allSatisfy { $0.queryValue("attachmentid") == String(attachmentID) })
        #expect(!requests.contains { $0.path == "/account.php" }, "no login: the session was good")
        #expect(!requests.contains { $0.path.hasPrefix("/images/") })

        // A second plain room watching the thread gets the same upload from the cache: the forum is not asked again.
        try await bot.engine.subscriptions.watch(threadID: "3600003", room: bot.room(second))
        await world.forumState.clearRequests()
        _ = try await world.forumState.addPost(
          thread: 3_600_003, author: 1003,
          body: "Quoting the desk: [img]attachment.php?attachmentid=\(attachmentID)[/img]")
        await bot.pollBookmarks()
        _ = try await bot.waitUntilOutboxDelivered()
        let again = try await owner.waitForMessages(in: second) { $0.from(botID).count >= 2 }.from(botID)
        let cached = try #require(again.first { $0.msgtype == "m.image" })
        #expect(cached.content["url"] == picture.content["url"], "the upload remembered by attachment number")
        #expect(await world.forumState.requests().filter { $0.path == "/attachment.php" }.isEmpty)
      }
    }
  }

  /// Issue 44, hostile attachments: the forum answers one number with a web page, one is deleted, one is a PNG whose
  /// header claims 20,000 × 20,000 pixels, one is text served as `image/png`, and the next post holds one that
  /// claims 4294967295 × 4294967295. The room reads each relay at once with every link, then one edit saying beside
  /// each link why it is not shown, in fixed words; no picture goes out; the bot lives; the forum session is kept.
  @Test("hostile attachments stay links with fixed reasons: a page, a deleted one, huge, not a picture")
  func hostileAttachments() async throws {
    try await MatrixTestWorld.with { world in
      let botID = world.botAccount.userID
      let owner = try await MatrixHuman.register("owner")
      try await MatrixBotProcess(world: world, configure: { $0.images.perPost = 6 }).run { bot in
        let plain = try await bot.joinedRoom(owner: owner)
        try await bot.engine.subscriptions.watch(threadID: "3600003", room: bot.room(plain))
        await bot.pollBookmarks()
        let state = world.forumState
        let page = await state.addAttachment(
          bytes: FakeAttachmentSample.page.bytes, contentType: FakeAttachmentSample.page.contentType)
        let deleted = await state.addAttachment(bytes: FakeImages.small, contentType: "image/png")
        await state.removeAttachment(deleted)
        let huge = await state.addAttachment(
          bytes: FakeAttachmentSample.huge.bytes, contentType: FakeAttachmentSample.huge.contentType)
        let text = await state.addAttachment(
          bytes: FakeAttachmentSample.notAPicture.bytes, contentType: FakeAttachmentSample.notAPicture.contentType)
        let absurd = await state.addAttachment(
          bytes: FakeAttachmentSample.absurd.bytes, contentType: FakeAttachmentSample.absurd.contentType)
        let ids = [page, deleted, huge, text]
        _ = try await state.addPost(
          thread: 3_600_003, author: 1002,
          body: "Look: " + ids.map { "[img]attachment.php?attachmentid=\($0)[/img]" }.joined(separator: " "))
        _ = try await state.addPost(
          thread: 3_600_003, author: 1002, body: "And: [img]attachment.php?attachmentid=\(absurd)[/img]")
        await bot.pollBookmarks()
        _ = try await bot.waitUntilOutboxDelivered()
        let relays = try await bot.outbox().filter { $0.kind == .post && $0.room == plain }.compactMap(\.receipt)
        #expect(relays.count == 2)
        let events = try await owner.waitForMessages(in: plain, timeout: .seconds(60)) { events in
          Set(events.from(botID).compactMap(\.replaces)) == Set(relays)
        }.from(botID)
        let link = { (id: Int) in
          world.forumURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            + "/attachment.php?attachmentid=\(id)"
        }
        let first = try #require(events.first { $0.replaces == relays.first })
        let edited = try #require(first.content["m.new_content"]?["body"]?.stringValue)
        #expect(edited.contains("\(link(page)) (picture not shown: the forum would not give it)"), "\(edited)")
        #expect(edited.contains("\(link(deleted)) (picture not shown: the forum would not give it)"), "\(edited)")
        #expect(edited.contains("\(link(huge)) (picture not shown: too large)"), "\(edited)")
        #expect(edited.contains("\(link(text)) (picture not shown: not a picture)"), "\(edited)")
        #expect(!edited.contains("Checking your browser") && !edited.contains("@room"), "the page's words stay out")
        let second = try #require(events.first { $0.replaces == relays.last })
        let secondBody = try #require(second.content["m.new_content"]?["body"]?.stringValue)
        #expect(secondBody.contains("\(link(absurd)) (picture not shown: too large)"), "\(secondBody)")
        #expect(events.filter { $0.msgtype == "m.image" }.isEmpty, "no picture of them goes out")
        #expect(await bot.forumsClient.hasSession(), "a page for a picture is no logout")
        let requests = await state.requests()
        #expect(
          requests.filter { $0.path == "/attachment.php" }.count == 5, "each once: \(requests.map(\.path))")
      }
    }
  }
}
