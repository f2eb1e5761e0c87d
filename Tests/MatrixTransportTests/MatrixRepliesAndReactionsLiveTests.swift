import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import MatrixTransport
import Testing

/// Replies and reactions between a person and the transport on a real homeserver: what Element sends reaches the
/// engine as `replyTo` and `ChatEvent.reaction`, and what `react` sends shows as a reaction to the person.
@Suite(
  "Matrix replies and reactions on Synapse", .enabled(if: SynapseEnvironment.isAvailable, SynapseEnvironment.skipReason)
)
struct MatrixRepliesAndReactionsLiveTests {
  static func relay(_ text: String) -> OutgoingMessage {
    OutgoingMessage(.legacy(text: text, html: nil, link: nil))
  }

  @Test("plain room: a reply to the bot and a reaction reach the engine; the bot's reaction reaches the person once")
  func plainRoom() async throws {
    try await LiveMatrixTransport.with { bot in
      let alice = try await MatrixHuman.register("alice")
      let room = try await alice.createRoom(name: "replies", invite: [bot.userID])
      try await bot.waitUntilJoined(room)
      let relay = try await bot.transport.send(
        Self.relay("Relayed: a post\non two lines"), to: room, idempotencyKey: "relay-1"
      ).id

      let replyID = try await alice.reply(to: relay, text: "!bookmark", in: room)
      let reactionID = try await alice.react(to: relay, key: "✅\u{FE0F}", in: room)
      let reply = try await bot.message(withID: replyID)
      #expect(reply.replyTo == relay)
      #expect(reply.text == "!bookmark", "the quoted fallback is gone")
      let reaction = try await bot.reaction(withID: reactionID)
      #expect(reaction.target == relay)
      #expect(reaction.key == "✅")
      #expect(reaction.senderID == alice.userID)
      #expect(reaction.room == room)
      #expect(reaction.transportRole != nil)
      #expect(reaction.transportRole == bot.transport.role(of: alice.userID, in: room))

      // The bot reacts to the reply; asked twice (a retry), it is one reaction.
      try await bot.transport.react(to: replyID, in: room, with: "👀")
      try await bot.transport.react(to: replyID, in: room, with: "👀")
      // The same reaction made from another session of the bot's account first: the homeserver refuses a second
      // one (M_DUPLICATE_ANNOTATION), which is no failure.
      try await bot.account.react(to: replyID, key: "🔁", in: room)
      try await bot.transport.react(to: replyID, in: room, with: "🔁")
      let reactions = try await alice.waitForEvents(in: room, types: ["m.reaction"]) { events in
        events.filter { $0.sender == bot.userID }.count >= 2
      }
      let fromBot = reactions.filter { $0.sender == bot.userID }
      #expect(fromBot.count == 2, "\(fromBot)")
      #expect(fromBot.map { $0.annotation?.target } == [replyID, replyID])
      #expect(fromBot.map { $0.annotation?.key } == ["👀", "🔁"])

      // A message after them all: once it is in, the bot's own reactions would be too, and they are not.
      let marker = try await alice.say("marker", in: room)
      _ = try await bot.message(withID: marker)
      #expect(
        !bot.events.contains { if case .reaction(let reaction) = $0 { reaction.senderID == bot.userID } else { false } }
      )
    }
  }

  @Test("the bot removes one of its relays (a redaction, with the reason); asked twice, it is one redaction")
  func redaction() async throws {
    try await LiveMatrixTransport.with { bot in
      let alice = try await MatrixHuman.register("alice")
      let room = try await alice.createRoom(name: "takedown", invite: [bot.userID])
      try await bot.waitUntilJoined(room)
      let relay = try await bot.transport.send(Self.relay("Relayed: a bad post"), to: room, idempotencyKey: "r-1").id
      try await bot.transport.redact(relay, in: room, reason: "taken down by an admin")
      try await bot.transport.redact(relay, in: room, reason: "taken down by an admin")
      let event = try await alice.call("GET", ["rooms", room, "event", relay])
      #expect(event["content"]?["body"] == nil, "the content is gone")
      #expect(event["unsigned"]?["redacted_because"]?["content"]?["reason"] == "taken down by an admin")
      let redactions = try await alice.events(in: room, types: ["m.room.redaction"]).filter { $0.sender == bot.userID }
      #expect(redactions.count == 1)
    }
  }

  @Test(
    "encrypted room: an encrypted reply and reactions (encrypted and plain) reach the engine; the bot reacts encrypted",
    .enabled(if: MatrixE2EEHuman.isAvailable, MatrixE2EEHuman.skipReason))
  func encryptedRoom() async throws {
    try await LiveMatrixTransport.with(encrypts: true) { bot in
      let alice = try await MatrixE2EEHuman.register("alice")
      try await using(alice, tearDown: { await $0.quit() }) { alice in
        let aliceID = await alice.userID
        let room = try await alice.createEncryptedRoom(name: "secret replies", invite: [bot.userID])
        try await bot.waitUntilJoined(room)
        let relay = try await bot.transport.send(
          Self.relay("Relayed: a secret post"), to: room, idempotencyKey: "relay-1"
        ).id
        let seen = try await alice.messages(in: room, from: bot.userID, count: 1)
        #expect(seen.first?.decrypted == true, "alice reads the relay she answers")

        let replyID = try await alice.reply(to: relay, text: "!bookmark", in: room)
        let encryptedReaction = try await alice.react(to: relay, key: "👍", in: room)
        let plainReaction = try await alice.react(to: relay, key: "✅\u{FE0F}", in: room, encrypted: false)
        let reply = try await bot.message(withID: replyID)
        #expect(reply.replyTo == relay)
        #expect(reply.text == "!bookmark")
        let reaction = try await bot.reaction(withID: encryptedReaction)
        #expect(reaction.target == relay)
        #expect(reaction.key == "👍")
        #expect(reaction.senderID == aliceID)
        #expect(reaction.transportRole == bot.transport.role(of: aliceID, in: room))
        let plain = try await bot.reaction(withID: plainReaction)
        #expect(plain.target == relay, "Element Web's plain reaction in an encrypted room counts too")
        #expect(plain.key == "✅")

        // The bot's reaction goes out encrypted, its relation in the cleartext, and alice reads it.
        try await bot.transport.react(to: replyID, in: room, with: "👀")
        let reactions = try await alice.reactions(in: room, from: bot.userID)
        #expect(reactions.count == 1)
        let sent = try #require(reactions.first)
        #expect(sent.encrypted && sent.decrypted && sent.secure)
        #expect(sent.annotation?.target == replyID)
        #expect(sent.annotation?.key == "👀")
        #expect(sent.content["m.relates_to"]?["key"] == "👀", "the relation is inside as well")
        #expect(
          try await alice.account.reactions(in: room).filter { $0.sender == bot.userID }.isEmpty,
          "no plain reaction from the bot")

        // A reaction from a session alice did not verify is not acted on, like a command from it: the bot says so.
        let unverified = try await MatrixE2EEHuman.anotherDevice(of: alice.account, crossSign: false)
        try await using(unverified, tearDown: { await $0.quit() }) { unverified in
          let refused = try await unverified.react(to: relay, key: "🔖", in: room)
          let notices = try await alice.messages(in: room, from: bot.userID, containing: "is not verified")
          #expect(notices.contains { $0.replyTo == refused }, "the bot answers the refused reaction")
          #expect(!bot.events.contains { if case .reaction(let r) = $0 { r.reactionID == refused } else { false } })
        }
      }
    }
  }
}
