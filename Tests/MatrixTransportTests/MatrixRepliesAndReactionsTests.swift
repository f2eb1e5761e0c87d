import AwfulBotTestKit
import ChatBridge
import Foundation
import MatrixModel
import Testing

@testable import MatrixTransport

@Suite("Matrix replies and reactions in sync answers")
struct MatrixRepliesAndReactionsTests {
  let interpreter = MatrixSyncInterpreter(
    transportName: "matrix", ownUserID: "@bot:example.org",
    roles: MatrixRoleMapping(userOverrides: ["@helper:example.org": .member]))

  /// One joined room whose timeline holds `events` (JSON objects), with power levels and Alice's display name.
  func batch(_ events: [String]) throws -> MatrixSyncBatch {
    let json = #"""
      {"next_batch": "s2", "rooms": {"join": {"!r:example.org": {
        "state": {"events": [
          {"type": "m.room.create", "state_key": "", "sender": "@admin:example.org", "event_id": "$create",
           "content": {"room_version": "10"}},
          {"type": "m.room.power_levels", "state_key": "", "sender": "@admin:example.org", "event_id": "$pl",
           "content": {"users": {"@admin:example.org": 100, "@mod:example.org": 50}}},
          {"type": "m.room.member", "state_key": "@alice:example.org", "sender": "@alice:example.org",
           "event_id": "$m1", "content": {"membership": "join", "displayname": "Alice"}}
        ]},
        "timeline": {"events": [\#(events.joined(separator: ",\n"))]}
      }}}}
      """#
    var directory = MatrixRoomDirectory()
    let response = try JSONDecoder().decode(MatrixSyncResponse.self, from: Data(json.utf8))
    return interpreter.interpret(response, directory: &directory, isInitial: false)
  }

  static func message(_ id: String, from sender: String = "@alice:example.org", body: String, relation: String? = nil)
    -> String
  {
    let encodedBody = String(decoding: try! JSONEncoder().encode(body), as: UTF8.self)
    let related = relation.map { #", "m.relates_to": \#($0)"# } ?? ""
    return #"""
      {"type": "m.room.message", "sender": "\#(sender)", "event_id": "\#(id)",
       "content": {"msgtype": "m.text", "body": \#(encodedBody)\#(related)}}
      """#
  }

  static func reaction(_ id: String, from sender: String = "@alice:example.org", to target: String, key: String)
    -> String
  {
    let encodedKey = String(decoding: try! JSONEncoder().encode(key), as: UTF8.self)
    return #"""
      {"type": "m.reaction", "sender": "\#(sender)", "event_id": "\#(id)",
       "content": {"m.relates_to": {"rel_type": "m.annotation", "event_id": "\#(target)", "key": \#(encodedKey)}}}
      """#
  }

  @Test("a reply names the event it answers, and its quoted fallback is not part of the text")
  func replyWithFallback() throws {
    let batch = try batch([
      Self.message(
        "$reply", body: "> <@bot:example.org> Relayed: a post\n> on two lines\n\n!bookmark this",
        relation: #"{"m.in_reply_to": {"event_id": "$relay"}}"#),
      Self.message("$bare", body: "!watch", relation: #"{"m.in_reply_to": {"event_id": "$relay2"}}"#),
      Self.message("$plain", body: "> <@bot:example.org> looks like a fallback\n\nbut answers nothing"),
    ])
    #expect(batch.messages.map(\.messageID) == ["$reply", "$bare", "$plain"])
    #expect(batch.messages[0].replyTo == "$relay")
    #expect(batch.messages[0].text == "!bookmark this")
    #expect(batch.messages[0].senderName == "Alice")
    #expect(batch.messages[1].replyTo == "$relay2", "a reply without fallback (spec v1.13 on) keeps its text")
    #expect(batch.messages[1].text == "!watch")
    #expect(batch.messages[2].replyTo == nil)
    #expect(batch.messages[2].text.hasPrefix("> <@bot"), "only a reply loses a quote")
  }

  @Test("a reply inside a thread answers its event; a thread message's fallback answers nothing")
  func threads() throws {
    let batch = try batch([
      Self.message(
        "$inThread", body: "!bookmark",
        relation: #"{"rel_type": "m.thread", "event_id": "$root", "m.in_reply_to": {"event_id": "$post3"}}"#),
      Self.message(
        "$explicit", body: "!watch",
        relation:
          #"{"rel_type": "m.thread", "event_id": "$root", "is_falling_back": false, "m.in_reply_to": {"event_id": "$post4"}}"#
      ),
      Self.message(
        "$fallingBack", body: "just chatting in the thread",
        relation:
          #"{"rel_type": "m.thread", "event_id": "$root", "is_falling_back": true, "m.in_reply_to": {"event_id": "$latest"}}"#
      ),
      Self.message("$threadOnly", body: "no reply at all", relation: #"{"rel_type": "m.thread", "event_id": "$root"}"#),
    ])
    #expect(batch.messages.map(\.replyTo) == ["$post3", "$post4", nil, nil])
    #expect(batch.messages[2].text == "just chatting in the thread")
  }

  @Test("reactions become events with the key without its variation selector, in timeline order with messages")
  func reactions() throws {
    let batch = try batch([
      Self.message("$m", body: "!help"),
      Self.reaction("$r1", to: "$relay", key: "✅\u{FE0F}"),
      Self.reaction("$r2", from: "@mod:example.org", to: "$relay", key: "🔖"),
      Self.reaction("$r3", from: "@helper:example.org", to: "$relay", key: "❤️"),
    ])
    #expect(batch.events.count == 4)
    guard case .message = batch.events.first else {
      Issue.record("the message comes first: \(batch.events)")
      return
    }
    let reactions = batch.reactions
    #expect(reactions.map(\.reactionID) == ["$r1", "$r2", "$r3"])
    #expect(reactions.map(\.key) == ["✅", "🔖", "\u{2764}"])
    #expect(reactions.allSatisfy { $0.target == "$relay" && $0.room == "!r:example.org" && $0.transport == "matrix" })
    #expect(reactions[0].senderName == "Alice")
    #expect(reactions[0].senderID == "@alice:example.org")
    #expect(reactions.map(\.transportRole) == [.viewer, .member, .member], "power levels, then role overrides")
  }

  @Test("the bot's own reactions and malformed annotations are ignored")
  func ignoredReactions() throws {
    let batch = try batch([
      Self.reaction("$own", from: "@bot:example.org", to: "$relay", key: "✅"),
      #"{"type": "m.reaction", "sender": "@alice:example.org", "event_id": "$noKey", "content": {"m.relates_to": {"rel_type": "m.annotation", "event_id": "$relay"}}}"#,
      #"{"type": "m.reaction", "sender": "@alice:example.org", "event_id": "$ref", "content": {"m.relates_to": {"rel_type": "m.reference", "event_id": "$relay", "key": "x"}}}"#,
      #"{"type": "m.reaction", "sender": "@alice:example.org", "event_id": "$redacted", "content": {}}"#,
    ])
    #expect(batch.events.isEmpty, "\(batch.events)")
  }

  @Test("the reply fallback is removed only in its own shape")
  func fallbackShapes() {
    let strip = MatrixRelation.strippingReplyFallback
    #expect(strip("> <@a:x> one\n> two\n\nanswer") == "answer")
    #expect(strip("> <@a:x> one\n>\n> three\n\nanswer\n\nmore") == "answer\n\nmore", "a quoted empty line is `>`")
    #expect(strip("> * <@a:x> waves\n\nhi") == "hi", "an emote's fallback")
    #expect(strip("> a line of the post\n\nmy comment") == "> a line of the post\n\nmy comment", "a typed quote stays")
    #expect(strip("> <@a:x> no empty line\nanswer") == "> <@a:x> no empty line\nanswer")
    #expect(strip("> <@a:x> only the quote") == "> <@a:x> only the quote")
    #expect(strip("plain") == "plain")
  }

  @Test("reaction keys lose trailing variation selectors only")
  func keys() {
    #expect(IncomingReaction.normalizedKey("✅\u{FE0F}") == "✅")
    #expect(IncomingReaction.normalizedKey("✅") == "✅")
    #expect(IncomingReaction.normalizedKey("👍🏽") == "👍🏽")
    #expect(IncomingReaction.normalizedKey("\u{FE0F}") == "\u{FE0F}", "nothing but the selector stays as sent")
  }

  @Test("a decrypted event takes its relation from the cleartext, as the spec says")
  func cleartextRelation() {
    let outer = MatrixEvent(
      type: "m.room.encrypted", sender: "@alice:example.org", eventID: "$e",
      content: ["ciphertext": "x", "m.relates_to": ["m.in_reply_to": ["event_id": "$relay"]]])
    let inner = MatrixEvent(
      type: "m.room.message", sender: "@alice:example.org", eventID: "$e",
      content: ["msgtype": "m.text", "body": "!watch", "m.relates_to": ["m.in_reply_to": ["event_id": "$other"]]])
    let read = MatrixTransport.withCleartextRelation(inner, of: outer)
    #expect(read.content["m.relates_to"]?["m.in_reply_to"]?["event_id"] == "$relay")
    #expect(read.content["body"] == "!watch")

    let bare = MatrixEvent(type: "m.room.encrypted", sender: "@alice:example.org", eventID: "$e", content: [:])
    #expect(
      MatrixTransport.withCleartextRelation(inner, of: bare).content["m.relates_to"] == nil,
      "a relation only inside the payload is ignored")

    let reaction = MatrixEvent(
      type: "m.reaction", sender: "@alice:example.org", eventID: "$er",
      content: ["m.relates_to": ["rel_type": "m.annotation", "event_id": "$relay", "key": "👍"]])
    let incoming = interpreter.incoming(
      from: MatrixTransport.withCleartextRelation(
        reaction, of: MatrixEvent(type: "m.room.encrypted", sender: "@alice:example.org", content: reaction.content)),
      room: "!r:example.org", directory: MatrixRoomDirectory())
    #expect(
      incoming
        == .reaction(
          IncomingReaction(
            transport: "matrix", room: "!r:example.org", senderID: "@alice:example.org", senderName: "alice",
            target: "$relay", key: "👍", reactionID: "$er", relationTrust: .serverControlled)),
      "read from the cleartext, so the homeserver's to write")
  }

  @Test("an encrypted event carries its relation in the cleartext too; its type goes inside")
  func encryptedRelation() async throws {
    let transport = MatrixTransport.unstarted()
    let encryption = RecordingEncryption()
    let room = "!e2ee:example.org"
    transport.state.withLock {
      $0.signIn.crypto = encryption
      $0.rooms.directory.joined.insert(room)
      $0.rooms.directory.encrypted.insert(room)
    }
    let relation: JSONValue = ["rel_type": "m.annotation", "event_id": "$relay", "key": "✅"]
    let sent = try await transport.encryptIfNeeded(
      ["m.relates_to": relation], type: "m.reaction", room: room, transactionID: "t1")
    #expect(sent.type == "m.room.encrypted")
    #expect(sent.content["m.relates_to"] == relation)
    #expect(sent.content["ciphertext"] == "opaque")
    #expect(encryption.types == ["m.reaction"])

    let plain = try await transport.encryptIfNeeded(["body": "hi"], room: room, transactionID: "t2")
    #expect(plain.content["m.relates_to"] == nil, "nothing added to an event without a relation")
    #expect(encryption.types == ["m.reaction", "m.room.message"])
  }

  @Test("a reaction's transaction id is the same for the same reaction, path-safe, and differs otherwise")
  func reactionTransactionIDs() {
    let id = MatrixTransport.reactionTransactionID(room: "!r:x", target: "$e", key: "✅")
    #expect(id == MatrixTransport.reactionTransactionID(room: "!r:x", target: "$e", key: "✅"))
    #expect(id != MatrixTransport.reactionTransactionID(room: "!r:x", target: "$e", key: "🔖"))
    #expect(id != MatrixTransport.reactionTransactionID(room: "!r:x", target: "$f", key: "✅"))
    #expect(
      id.hasPrefix("awfulbot-react-") && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
  }

  @Test("Matrix declares replies and reactions")
  func capabilities() {
    let capabilities = MatrixTransport.unstarted().capabilities
    #expect(capabilities.replies && capabilities.reactions)
  }
}
