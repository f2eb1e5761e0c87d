import AwfulBotMatrixTestKit
import AwfulBotTestKit
import BotCore
import ChatBridge
import FakeForum
import Foundation
import MatrixCrypto
import MatrixTransport
import Testing

extension MatrixIntegrationTests.HostileChain {
  /// People the operator never named, against Synapse and the emulator: each case is a transcript of what they read,
  /// and the emulator's request log shows nothing reached the forum (no POST: no reply, no bookmark, no message read).
  @Suite("hostile users on Matrix", .serialized)
  struct HostileUsers {
    static let devThread = "3600001"
    static let link = "https://forums.somethingawful.com/showthread.php?threadid=3600005"

    /// The forum requests that change something or read the inbox.
    static func actingRequests(_ world: MatrixTestWorld) async -> [LoggedRequest] {
      await world.forumState.requests().filter { $0.method == "POST" || $0.path.contains("private.php") }
    }

    /// A stranger on an allowed server makes a direct chat of their own and invites the bot: it joins (their server
    /// is allowed), but their power 100 there counts for that room only. `!pms`, `!reply` + `!confirm` and
    /// `!bookmark` are refused with what the operator would have to grant; the forum sees none of it.
    @Test("a stranger's own direct chat: no private messages, no post, no bookmark")
    func strangersDirectChat() async throws {
      try await MatrixTestWorld.with { world in
        let stranger = try await MatrixHuman.register("stranger")
        let bot = try MatrixBotProcess(world: world, namesJoinedRooms: false)
        try await bot.run { bot in
          let answer = try await stranger.call(
            "POST", ["createRoom"],
            body: [
              "preset": "trusted_private_chat", "is_direct": true,
              "invite": [.string(world.botAccount.userID)],
            ])
          let room = try #require(answer["room_id"]?.stringValue)
          try await bot.waitUntilJoined(room)
          await world.forumState.clearRequests()
          _ = try await world.forumState.sendPrivateMessage(from: 1002, to: 1001, title: "launch codes", body: "0000")

          var transcript: [String] = []
          for command in [
            "!pms", "!reply \(Self.devThread) posted by a stranger", "!confirm", "!bookmark \(Self.link)",
          ] {
            let id = try await stranger.say(command, in: room)
            let events = try await stranger.waitForMessages(in: room) { events in
              events.contains { $0.replyTo == id }
            }
            let reply = try #require(events.first { $0.replyTo == id }, "the bot answers \(command)")
            transcript += ["stranger: \(command)", "bot: \(reply.body ?? "-")"]
          }
          let refusal =
            "acts on the bot's forum account, so it needs the admin role from the bot's operator (roles in its config, "
            + "or room power in a room its config names); your power in this room does not count, as the config does "
            + "not name it."
          #expect(
            transcript == [
              "stranger: !pms", "bot: “pms” \(refusal)",
              "stranger: !reply \(Self.devThread) posted by a stranger", "bot: “reply” \(refusal)",
              "stranger: !confirm", "bot: Nothing to confirm: start with !reply <thread> <text>.",
              "stranger: !bookmark \(Self.link)",
              "bot: “bookmark” " + refusal.replacingOccurrences(of: "the admin role", with: "the member role"),
            ], "\(transcript.joined(separator: "\n"))")
          #expect(await Self.actingRequests(world).isEmpty, "nothing reached the forum")
          #expect(await world.forumState.bookmarks(user: 1001)[3_600_005] == nil)
        }
      }
    }

    /// A viewer says 200 commands as fast as the homeserver takes them in a room of theirs, while posts flow to
    /// another room: the viewer gets a minute's budget of answers and one refusal, and the relay to the other room
    /// arrives meanwhile (its delay is printed for the note; speed targets live in the bench, not in tests).
    @Test("a flood of commands from one viewer: a minute's budget answered, one refusal, relays elsewhere on time")
    func commandFlood() async throws {
      try await MatrixTestWorld.with { world in
        let admin = try await MatrixHuman.register("admin", admin: true)
        let owner = try await MatrixHuman.register("owner")
        let flooder = try await MatrixHuman.register("flooder")
        try await admin.overrideRateLimit(for: flooder.userID, messagesPerSecond: 0, burst: 0)
        let limits = CommandBudget.Limits.standard
        let bot = try MatrixBotProcess(world: world, budget: limits)
        try await bot.run { bot in
          let quiet = try await bot.joinedRoom(owner: owner, name: "relays")
          let noisy = try await bot.joinedRoom(owner: owner, name: "noise")
          try await owner.invite(flooder.userID, to: noisy)
          try await flooder.join(noisy)
          try await bot.engine.subscriptions.watch(threadID: "3600001", room: bot.room(quiet))

          let flood = Task {
            let start = ContinuousClock.now
            for index in 0..<200 { _ = try? await flooder.say("!nosuch\(index)", in: noisy) }
            return ContinuousClock.now - start
          }
          let started = ContinuousClock.now
          _ = try await world.forumState.addPost(thread: 3_600_001, author: 1002, body: "A post during the flood")
          await bot.pollBookmarks()
          _ = try await owner.waitForMessages(in: quiet, timeout: .seconds(30)) { events in
            events.contains { $0.body?.contains("A post during the flood") == true }
          }
          let relayTime = ContinuousClock.now - started
          let floodTime = await flood.value
          // What the flooder reads, once the bot has worked through the flood (a marker from the owner comes last).
          let marker = try await owner.say("!help", in: noisy)
          let events = try await owner.waitForMessages(in: noisy, timeout: .seconds(60)) { events in
            events.contains { $0.replyTo == marker }
          }
          let answers = events.filter { $0.sender == world.botAccount.userID && $0.replyTo != marker }
          let refusals = answers.filter {
            $0.body?.hasPrefix("You are giving commands faster than I take them") == true
          }
          #expect(refusals.count == 1, "one refusal: \(answers.compactMap(\.body))")
          // A minute's budget, and what it refilled while the flood lasted (one every three seconds).
          let refilled = Int(floodTime.components.seconds) * limits.userCommandsPerMinute / 60 + 1
          #expect(answers.count - 1 <= limits.userCommandsPerMinute + refilled, "\(answers.count) answers")
          print(
            "command flood: relay to the other room after \(relayTime); \(answers.count) answers to 200 commands "
              + "said in \(floodTime)")
        }
      }
    }
  }
}

extension MatrixIntegrationTests.ElementPolicy {
  /// The admin of an encrypted room writes from a client with no encryption at all (a stolen token would look the
  /// same): `!reply` + `!confirm` in clear do not post; she is told once, in the encrypted room, how to do it. From
  /// her verified session the same reply is previewed, and her ✅ on it, sent in clear as Element Web sends
  /// reactions, posts it once. A 🔖 in clear on a relay does nothing.
  @Test("an admin's unencrypted commands in an encrypted room do not act; her ✅ on her own preview does")
  func unencryptedCommandsInAnEncryptedRoom() async throws {
    try await MatrixTestWorld.with { world in
      let botID = world.botAccount.userID
      let alice = try await MatrixE2EEHuman.register("alice")
      defer { Task { await alice.quit() } }
      try await MatrixBotProcess(world: world, configure: Self.configure).run { bot in
        let room = try await alice.createEncryptedRoom(name: "secret", invite: [botID])
        try await bot.waitUntilJoined(room)
        await world.forumState.removeBookmark(user: 1001, thread: 3_600_005)
        await world.forumState.clearRequests()

        // From her account's plain client: nothing encrypted, so nothing shows it is hers.
        _ = try await alice.account.say("!reply 3600001 launch the codes", in: room)
        let told = try #require(
          try await alice.messages(in: room, from: botID, containing: "came unencrypted").last,
          "she is told, in the encrypted room")
        #expect(told.decrypted && !told.insecure)
        #expect(
          told.body
            == "“!reply” came unencrypted in this encrypted room, so nothing shows it is yours: I act here only on "
            + "what a verified session sends encrypted. Send it again from a session you have verified, with "
            + "encryption on (in Element: Settings → Sessions). I will not repeat this here.")
        _ = try await alice.account.say("!confirm", in: room)
        _ = try await alice.account.say("!bookmark 3600005", in: room)

        // From her verified session: the preview, then ✅ in clear on it.
        _ = try await alice.say("!reply 3600001 from my verified session", in: room)
        let preview = try #require(
          try await alice.messages(in: room, from: botID, containing: "from my verified session").last)
        try await alice.react(to: preview.eventID, key: "✅", in: room, encrypted: false)
        let posted = try #require(try await alice.messages(in: room, from: botID, containing: "Posted").last)
        #expect(posted.decrypted)
        let all = try await alice.messages(in: room, from: botID, count: 1)
        #expect(
          all.filter { $0.body?.contains("came unencrypted") == true }.count == 1, "the refusal is said once")
        let replies = await world.forumState.requests().filter { $0.method == "POST" && $0.path == "/newreply.php" }
          .compactMap { $0.formValue("message") }
        #expect(replies == ["from my verified session"], "one post: the verified one; \(replies)")
        #expect(await world.forumState.bookmarks(user: 1001)[3_600_005] == nil, "the plain !bookmark did nothing")
      }
    }
  }

  /// Someone publishes a new identity for a member (a reset from a device the bot never saw, or anyone with her
  /// password) and cross-signs a session with it. Her commands stop acting and her sessions get no room keys; the
  /// other members are told once; the operator's `acceptedIdentities` (applied on reload) makes her trusted again.
  @Test("a member's identity replaced: the room is told once, her commands wait until the operator accepts the key")
  func replacedIdentity() async throws {
    try await MatrixTestWorld.with { world in
      let botID = world.botAccount.userID
      let alice = try await MatrixE2EEHuman.register("alice")
      let bob = try await MatrixE2EEHuman.register("bob")
      defer { Task { await alice.quit() } }
      defer { Task { await bob.quit() } }
      let (aliceID, bobID) = (await alice.userID, await bob.userID)
      try await MatrixBotProcess(world: world, configure: Self.configure).run { bot in
        let room = try await alice.createEncryptedRoom(name: "pinned", invite: [botID, bobID])
        try await bob.join(room)
        try await bot.waitUntilJoined(room)
        _ = try await alice.say("!help bookmark", in: room)
        _ = try #require(try await alice.messages(in: room, from: botID, containing: "bookmark").last)
        await world.forumState.removeBookmark(user: 1001, thread: 3_600_005)
        await world.forumState.clearRequests()

        let newKey = try await alice.resetIdentity()
        let grouped = MatrixEncryptionSetup.grouped(newKey)
        let notice = try #require(
          try await bob.messages(in: room, from: botID, containing: "has a new identity").last,
          "the other members are told")
        // Her display name, then her user id (a word joiner after the @ keeps clients from linking it twice).
        let localpart = aliceID.dropFirst().prefix { $0 != ":" }
        #expect(
          notice.body
            == "\(localpart) (@\u{2060}\(aliceID.dropFirst())) has a new identity: their master key is now "
            + "\(grouped). Until my operator accepts it, I give their sessions no keys to this room and act on "
            + "nothing they send. If they reset it themselves, they can show my operator the new key; the operator "
            + "adds it to acceptedIdentities in my config.")
        _ = try await alice.say("!bookmark 3600005", in: room)
        // Bob's command is answered after hers was handled (one event stream, in order).
        _ = try await bob.say("!help undo", in: room)
        _ = try #require(try await bob.messages(in: room, from: botID, containing: "undo").last)
        #expect(await world.forumState.bookmarks(user: 1001)[3_600_005] == nil, "the bookmark was not made")
        #expect(await MatrixIntegrationTests.HostileUsers.actingRequests(world).isEmpty)
        let unreadable = try await alice.messages(in: room, from: botID, count: 1).filter { !$0.decrypted }
        #expect(!unreadable.isEmpty, "her sessions under the new identity read nothing the bot said since")

        // The operator accepts the key she showed them (copied as grouped), and reloads.
        var accepted = bot.transport.configuration
        accepted.acceptedIdentities = [aliceID: grouped]
        let changes = await bot.transport.reconfigure(from: bot.transport.configuration, to: accepted)
        #expect(changes == ["accepted the identity given for \(aliceID)"])
        _ = try await alice.say("!bookmark 3600005", in: room)
        _ = try #require(try await alice.messages(in: room, from: botID, containing: "Bookmarked").last)
        #expect(await world.forumState.bookmarks(user: 1001)[3_600_005] != nil)
        let all = try await bob.messages(in: room, from: botID, count: 1)
        #expect(all.filter { $0.body?.contains("has a new identity") == true }.count == 1, "told once")
      }
    }
  }
}
