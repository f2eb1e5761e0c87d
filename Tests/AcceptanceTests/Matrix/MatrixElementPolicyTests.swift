import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import MatrixCrypto
import MatrixTransport
import Testing

extension MatrixIntegrationTests.PolicyChain {
  /// The bot as Element users meet it since April 2026, when Element began excluding devices their owner did not
  /// cross-sign (MSC4153): the member client here does the same (no room keys for such devices, nothing shown from
  /// them). The bot must be cross-signed to be heard and read at all; it then holds others to the same rule.
  @Suite(
    "encryption under Element's device policy", .serialized,
    .enabled(if: MatrixE2EEHuman.isAvailable, MatrixE2EEHuman.skipReason))
  struct ElementPolicy {
    static let devThread = 3_600_001

    static func configure(_ configuration: inout MatrixTransportConfiguration) {
      configuration.pickleKey = "element policy pickle key"
      configuration.undecryptableWaitSeconds = 30
    }

    /// Transcript, as the member reads it: the bot's device checks as cross-signed by its owner; `!help` is answered
    /// and readable; a relay is readable. Her second, unverified session gets no key from the bot, and its `!help`
    /// is not acted on: the bot says once, to her verified session, what to do.
    @Test("a member with Element's policy reads the bot; her unverified session is refused once, with what to do")
    func memberWithElementsPolicy() async throws {
      try await MatrixTestWorld.with { world in
        let botID = world.botAccount.userID
        let alice = try await MatrixE2EEHuman.register("alice")
        let laptop = try await MatrixE2EEHuman.anotherDevice(of: alice.account, crossSign: false)
        defer {
          Task {
            await alice.quit(); await laptop.quit()
          }
        }
        try await MatrixBotProcess(world: world, configure: Self.configure).run { bot in
          let room = try await alice.createEncryptedRoom(name: "secret", invite: [botID])
          try await bot.waitUntilJoined(room)

          // The bot's device, as Element judges it: cross-signed by its owner, under the master key the bot holds.
          let trust = try await alice.deviceTrust(of: botID)
          #expect(trust.problems.count == 1, "one device: \(trust.problems)")
          let botDevice = try #require(trust.problems.keys.first)
          #expect(trust.isCrossSigned(botDevice), "the bot's device: \(String(describing: trust.problems[botDevice]))")
          let identity = await bot.transport.encryptionIdentityStatus()
          #expect(identity != nil && trust.masterKey == identity?.masterKey)
          #expect(identity?.trust == .crossSigned, "trusting only cross-signed devices is the default")

          // alice: !help
          let command = try await alice.say("!help", in: room)
          let answer = try #require(
            try await alice.messages(in: room, from: botID, count: 1).first, "the bot's answer reached alice")
          #expect(answer.decrypted && !answer.insecure && !answer.undecryptable)
          #expect(answer.replyTo == command)
          #expect(answer.body?.contains("bookmarks") == true, "the help text: \(answer.body ?? "-")")

          // A relayed post reads as any other message.
          try await bot.engine.subscriptions.subscribe(room: bot.room(room), to: .bookmarks)
          await bot.pollBookmarks()
          _ = try await world.forumState.addPost(
            thread: Self.devThread, author: 1002, body: "A post for the [b]encrypted[/b] room")
          await bot.pollBookmarks()
          let relays = try await alice.messages(in: room, from: botID, containing: "encrypted room")
          let relay = try #require(relays.last)
          #expect(relay.decrypted && !relay.insecure)
          #expect(relay.body?.contains("A post for the encrypted room") == true)

          // alice on her laptop, a session she never verified: !help is not acted on; she is told once.
          try await laptop.join(room)
          let unverified = try await laptop.say("!help", in: room)
          let told = try await alice.messages(in: room, from: botID, containing: "it is not verified")
          let notice = try #require(told.last { $0.body?.contains("it is not verified") == true })
          #expect(notice.decrypted && !notice.insecure)
          let laptopDevice = await laptop.deviceID
          #expect(notice.body?.contains(laptopDevice) == true, "names the session: \(notice.body ?? "-")")
          #expect(notice.body?.contains("Settings → Sessions") == true)
          #expect(notice.replyTo == unverified, "a reply to the message it refuses")
          let aliceID = await alice.userID
          #expect(
            notice.content["m.mentions"]?["user_ids"] == [.string(aliceID)],
            "it mentions her, so her verified sessions are notified")
          _ = try await laptop.say("!help", in: room)
          let barrier = try await alice.say("!help", in: room)
          var seen: [MatrixE2EEHuman.Seen] = []
          for _ in 0..<15 where !seen.contains(where: { $0.replyTo == barrier }) {
            seen = try await alice.messages(in: room, from: botID, count: 100, timeout: 2)
          }
          #expect(seen.contains { $0.replyTo == barrier }, "the verified session is still answered")
          #expect(
            !seen.contains { $0.replyTo == unverified && $0.body?.contains("it is not verified") != true },
            "no answer to the unverified session's command, only the one notice")
          #expect(
            seen.filter { $0.body?.contains("it is not verified") == true }.count == 1,
            "told once: \(seen.compactMap(\.body))")
          // What the bot sends is sealed for verified devices only: the laptop cannot read it.
          let onLaptop = try await laptop.messages(in: room, from: botID, count: 1, timeout: 5)
          #expect(!onLaptop.isEmpty && onLaptop.allSatisfy { !$0.decrypted }, "\(onLaptop.map(\.decrypted))")
        }
      }
    }

    /// The identity across restarts and databases: a restart keeps the master key; a new database without the
    /// recovery key stops the transport with one sentence naming both ways on; with it, the same identity comes
    /// back, signs the new device, and the member's client trusts that device at once.
    @Test("the identity survives a restart and, with the recovery key, a new database; without it the bot says why")
    func identityAcrossDatabases() async throws {
      try await MatrixTestWorld.with { world in
        let botID = world.botAccount.userID
        let alice = try await MatrixE2EEHuman.register("alice")
        defer { Task { await alice.quit() } }
        let (room, master, recoveryKey) = try await MatrixBotProcess(world: world, configure: Self.configure).run {
          bot in
          let room = try await alice.createEncryptedRoom(name: "secret", invite: [botID])
          try await bot.waitUntilJoined(room)
          let master = try #require(await bot.transport.encryptionIdentityStatus()?.masterKey)
          return (room, master, try #require(await bot.transport.recoveryKey()))
        }
        let parsedKey = try RecoveryKey(parsing: recoveryKey)
        #expect(parsedKey.displayed == recoveryKey, "Element's form")

        try await MatrixBotProcess(world: world, configure: Self.configure).run { bot in
          #expect(await bot.transport.encryptionIdentityStatus()?.masterKey == master, "a restart keeps the identity")
        }

        let lost = try MatrixBotProcess(world: world, configure: Self.configure, databaseName: "new-machine.sqlite")
        do {
          try await lost.start()
          Issue.record("a new database without the recovery key started")
        } catch {
          let sentence = "\(error)"
          #expect(sentence.contains("already has a cross-signing identity"), "\(sentence)")
          #expect(sentence.contains("encryption.recoveryKey") && sentence.contains("--reset-matrix-identity"))
          #expect(!sentence.contains(recoveryKey))
        }
        await lost.stop()

        try await MatrixBotProcess(
          world: world,
          configure: {
            Self.configure(&$0)
            $0.encryption.recoveryKey = parsedKey
          }, databaseName: "restored.sqlite"
        ).run { bot in
          #expect(await bot.transport.encryptionIdentityStatus()?.masterKey == master, "the same identity")
          let trust = try await alice.deviceTrust(of: botID)
          #expect(trust.masterKey == master)
          // The refused database published nothing: no device of the bot that its identity never signs, which
          // Element would show every member as an unverified session of the bot.
          #expect(trust.problems.count == 2, "three databases, two devices with keys: \(trust.problems)")
          let signed = trust.problems.keys.filter { trust.isCrossSigned($0) }
          #expect(signed.count == 2, "the first device and the restored one, both signed: \(trust.problems)")
          // The member's client shares its key with the restored device, which answers.
          let command = try await alice.say("!help", in: room)
          let answers = try await alice.messages(in: room, from: botID, count: 1)
          #expect(answers.contains { $0.replyTo == command && $0.decrypted })
        }
      }
    }
  }
}
