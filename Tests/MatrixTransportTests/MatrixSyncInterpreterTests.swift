import AwfulBotTestKit
import ChatBridge
import Foundation
import MatrixModel
import Testing

@testable import MatrixTransport

@Suite("Matrix sync answers")
struct MatrixSyncInterpreterTests {
  let interpreter = MatrixSyncInterpreter(
    transportName: "matrix", ownUserID: "@bot:example.org", roles: MatrixRoleMapping())

  func decode(_ json: String) throws -> MatrixSyncResponse {
    try JSONDecoder().decode(MatrixSyncResponse.self, from: Data(json.utf8))
  }

  static let joinedRoom = #"""
    {
      "next_batch": "s2",
      "rooms": {
        "join": {
          "!r:example.org": {
            "state": {"events": [
              {"type": "m.room.create", "state_key": "", "sender": "@founder:example.org", "event_id": "$create",
               "content": {"room_version": "12"}},
              {"type": "m.room.power_levels", "state_key": "", "sender": "@admin:example.org", "event_id": "$pl",
               "content": {"users": {"@admin:example.org": 100, "@mod:example.org": "50"}, "users_default": 0}},
              {"type": "m.room.member", "state_key": "@mod:example.org", "sender": "@mod:example.org",
               "event_id": "$m1", "content": {"membership": "join", "displayname": "Moderator"}}
            ]},
            "timeline": {"events": [
              {"type": "m.room.message", "sender": "@mod:example.org", "event_id": "$c1",
               "content": {"msgtype": "m.text", "body": "!bookmark 123"}},
              {"type": "m.room.message", "sender": "@bot:example.org", "event_id": "$own",
               "content": {"msgtype": "m.text", "body": "!help"}},
              {"type": "m.room.message", "sender": "@mod:example.org", "event_id": "$edit",
               "content": {"msgtype": "m.text", "body": "* !unbookmark 123", "m.new_content": {"msgtype": "m.text", "body": "!unbookmark 123"},
                           "m.relates_to": {"rel_type": "m.replace", "event_id": "$c1"}}},
              {"type": "m.room.message", "sender": "@other:example.org", "event_id": "$n",
               "content": {"msgtype": "m.notice", "body": "!help from another bot"}},
              {"type": "m.room.power_levels", "state_key": "", "sender": "@admin:example.org", "event_id": "$pl2",
               "content": {"users": {"@admin:example.org": 100}}},
              {"type": "m.room.message", "sender": "@mod:example.org", "event_id": "$c2",
               "content": {"msgtype": "m.text", "body": "> <@x:example.org> quoted\n> more\n\n!watch 5",
                           "m.relates_to": {"m.in_reply_to": {"event_id": "$x"}}}},
              {"type": "m.room.message", "sender": "@admin:example.org", "event_id": "$c3",
               "content": {"msgtype": "m.text", "body": "!mode summary"}},
              {"type": "m.room.message", "sender": "@founder:example.org", "event_id": "$c4",
               "content": {"msgtype": "m.text", "body": "!status"}}
            ]}
          }
        }
      }
    }
    """#

  @Test("text messages from others become commands with the sender's role at that point of the timeline")
  func messages() throws {
    var directory = MatrixRoomDirectory()
    let batch = interpreter.interpret(try decode(Self.joinedRoom), directory: &directory, isInitial: false)
    #expect(
      batch.messages.map(\.messageID) == ["$c1", "$c2", "$c3", "$c4"], "own messages, edits and notices are skipped")
    #expect(batch.messages[0].text == "!bookmark 123")
    #expect(batch.messages[0].senderName == "Moderator")
    #expect(batch.messages[0].transportRole == .member, "power 50 (even written as a string) is member")
    #expect(batch.messages[1].transportRole == .viewer, "power was lowered before this message")
    #expect(batch.messages[1].text == "!watch 5", "the reply fallback is not part of the command")
    #expect(batch.messages[2].transportRole == .admin)
    #expect(batch.messages[2].transport == "matrix")
    #expect(batch.messages[2].room == "!r:example.org")
    #expect(batch.messages[3].transportRole == .admin, "a room-version-12 creator outranks every power level")
    #expect(batch.roomsWithoutPowerLevels.isEmpty)
    #expect(directory.joined == ["!r:example.org"])
    #expect(
      batch.membershipChanges == [MatrixMembershipChange(room: "!r:example.org", kind: .joined, by: "@bot:example.org")]
    )
  }

  @Test(
    "a plain message or reaction in an encrypted room is marked unencrypted; a decrypted one and a plain room's are not"
  )
  func trust() throws {
    let json = #"""
      {"next_batch": "s9", "rooms": {"join": {
        "!plain:example.org": {"timeline": {"events": [
          {"type": "m.room.message", "sender": "@a:example.org", "event_id": "$p",
           "content": {"msgtype": "m.text", "body": "!reply 1 plain room"}}]}},
        "!secret:example.org": {"timeline": {"events": [
          {"type": "m.room.message", "sender": "@a:example.org", "event_id": "$before",
           "content": {"msgtype": "m.text", "body": "!status"}},
          {"type": "m.room.encryption", "state_key": "", "sender": "@a:example.org", "event_id": "$e",
           "content": {"algorithm": "m.megolm.v1.aes-sha2"}},
          {"type": "m.room.message", "sender": "@a:example.org", "event_id": "$clear",
           "content": {"msgtype": "m.text", "body": "!reply 1 in clear"}},
          {"type": "m.reaction", "sender": "@a:example.org", "event_id": "$r",
           "content": {"m.relates_to": {"rel_type": "m.annotation", "event_id": "$x", "key": "🔖"}}}]}}
      }}}
      """#
    var directory = MatrixRoomDirectory()
    let batch = interpreter.interpret(try decode(json), directory: &directory, isInitial: false)
    let trust = Dictionary(uniqueKeysWithValues: batch.messages.map { ($0.messageID ?? "", $0.trust) })
    #expect(trust["$p"] == .trusted)
    #expect(trust["$before"] == .trusted, "sent before the room turned encryption on")
    #expect(trust["$clear"] == .unencryptedInEncryptedRoom)
    #expect(batch.reactions.first?.trust == .unencryptedInEncryptedRoom)
    // The same message, decrypted by the bot from a trusted device.
    var decrypted = MatrixEvent(
      type: "m.room.message", sender: "@a:example.org", eventID: "$d",
      content: ["msgtype": "m.text", "body": "!reply 1"])
    decrypted.wasEncrypted = true
    #expect(interpreter.message(from: decrypted, room: "!secret:example.org", directory: directory)?.trust == .trusted)
    // `wasEncrypted` is never read from the wire.
    let wire = try JSONDecoder().decode(
      MatrixEvent.self,
      from: Data(#"{"type":"m.room.message","sender":"@a:x","content":{},"wasEncrypted":true}"#.utf8))
    #expect(!wire.wasEncrypted)
  }

  @Test(
    "in an encrypted room every relation is the homeserver's: a decrypted reply's, an encrypted reaction's; a plain room's is the sender's"
  )
  func relationTrust() throws {
    let json = #"""
      {"next_batch": "s9", "rooms": {"join": {
        "!plain:example.org": {"timeline": {"events": [
          {"type": "m.room.message", "sender": "@a:example.org", "event_id": "$p",
           "content": {"msgtype": "m.text", "body": "yes", "m.relates_to": {"m.in_reply_to": {"event_id": "$relay"}}}},
          {"type": "m.reaction", "sender": "@a:example.org", "event_id": "$pr",
           "content": {"m.relates_to": {"rel_type": "m.annotation", "event_id": "$x", "key": "🔖"}}}]}},
        "!secret:example.org": {"state": {"events": [
          {"type": "m.room.encryption", "state_key": "", "sender": "@a:example.org", "event_id": "$e",
           "content": {"algorithm": "m.megolm.v1.aes-sha2"}}]}}
      }}}
      """#
    var directory = MatrixRoomDirectory()
    let batch = interpreter.interpret(try decode(json), directory: &directory, isInitial: false)
    #expect(batch.messages.first?.replyTo == "$relay")
    #expect(batch.messages.first?.relationTrust == .asSender)
    #expect(batch.reactions.first?.relationTrust == .asSender)
    // Decrypted by the bot from a trusted device, the relation taken from the clear envelope around it.
    let envelope = MatrixEvent(
      type: "m.room.encrypted", sender: "@a:example.org", eventID: "$d",
      content: [
        "algorithm": "m.megolm.v1.aes-sha2", "ciphertext": "…",
        "m.relates_to": ["m.in_reply_to": ["event_id": "$relay"]],
      ])
    let inner = MatrixEvent(
      type: "m.room.message", sender: "@a:example.org", eventID: "$d", content: ["msgtype": "m.text", "body": "yes"])
    let decrypted = MatrixTransport.withCleartextRelation(inner, of: envelope)
    let reply = try #require(interpreter.message(from: decrypted, room: "!secret:example.org", directory: directory))
    #expect(reply.trust == .trusted && reply.replyTo == "$relay")
    #expect(reply.relationTrust == .serverControlled, "the homeserver could have added it")
    var reaction = MatrixEvent(
      type: "m.reaction", sender: "@a:example.org", eventID: "$r",
      content: ["m.relates_to": ["rel_type": "m.annotation", "event_id": "$x", "key": "🔖"]])
    reaction.wasEncrypted = true
    let encryptedReaction = try #require(
      interpreter.reaction(from: reaction, room: "!secret:example.org", directory: directory))
    #expect(encryptedReaction.trust == .trusted)
    #expect(encryptedReaction.relationTrust == .serverControlled, "its key and target are in clear")
    // Known encrypted by the event alone, before the directory shows the room.
    #expect(
      interpreter.message(from: decrypted, room: "!new:example.org", directory: MatrixRoomDirectory())?.relationTrust
        == .serverControlled)
  }

  @Test("the first sync reads state but never runs old commands")
  func initialSync() throws {
    var directory = MatrixRoomDirectory()
    let batch = interpreter.interpret(try decode(Self.joinedRoom), directory: &directory, isInitial: true)
    #expect(batch.messages.isEmpty)
    #expect(batch.membershipChanges.isEmpty)
    #expect(directory.powerLevels["!r:example.org"]?.level(of: "@admin:example.org") == 100)
  }

  @Test("invites name the inviter and whether it is a direct chat")
  func invites() throws {
    let json = #"""
      {"next_batch": "s3", "rooms": {"invite": {"!dm:example.org": {"invite_state": {"events": [
        {"type": "m.room.name", "state_key": "", "sender": "@alice:example.org", "content": {"name": "chat"}},
        {"type": "m.room.member", "state_key": "@bot:example.org", "sender": "@alice:example.org",
         "content": {"membership": "invite", "is_direct": true}}
      ]}}}}}
      """#
    var directory = MatrixRoomDirectory()
    let batch = interpreter.interpret(try decode(json), directory: &directory, isInitial: false)
    #expect(batch.invites == [MatrixInvite(room: "!dm:example.org", inviter: "@alice:example.org", isDirect: true)])
  }

  @Test("kicks and bans of the bot are reported, and the room is forgotten")
  func kicksAndBans() throws {
    let json = #"""
      {"next_batch": "s4", "rooms": {"leave": {
        "!kick:example.org": {"timeline": {"events": [
          {"type": "m.room.member", "state_key": "@bot:example.org", "sender": "@admin:example.org", "event_id": "$k",
           "content": {"membership": "leave", "reason": "spam"}}]}},
        "!ban:example.org": {"timeline": {"events": [
          {"type": "m.room.member", "state_key": "@bot:example.org", "sender": "@admin:example.org", "event_id": "$b",
           "content": {"membership": "ban"}}]}}
      }}}
      """#
    var directory = MatrixRoomDirectory()
    directory.joined = ["!kick:example.org", "!ban:example.org"]
    directory.powerLevels["!kick:example.org"] = MatrixPowerLevels()
    let batch = interpreter.interpret(try decode(json), directory: &directory, isInitial: false)
    #expect(
      batch.membershipChanges == [
        MatrixMembershipChange(room: "!ban:example.org", kind: .banned, by: "@admin:example.org"),
        MatrixMembershipChange(room: "!kick:example.org", kind: .kicked, by: "@admin:example.org", reason: "spam"),
      ])
    #expect(directory.joined.isEmpty)
    #expect(directory.powerLevels.isEmpty)
  }

  @Test("a joined room without power levels in the answer is listed for fetching")
  func missingPowerLevels() throws {
    let json = #"{"next_batch": "s5", "rooms": {"join": {"!q:example.org": {"timeline": {"events": []}}}}}"#
    var directory = MatrixRoomDirectory()
    let batch = interpreter.interpret(try decode(json), directory: &directory, isInitial: false)
    #expect(batch.roomsWithoutPowerLevels == ["!q:example.org"])
  }

  static let encryptedRoom = #"""
    {"next_batch": "s6", "rooms": {"join": {
      "!e2ee:example.org": {
        "state": {"events": [
          {"type": "m.room.encryption", "state_key": "", "sender": "@alice:example.org", "event_id": "$enc",
           "content": {"algorithm": "m.megolm.v1.aes-sha2"}}
        ]},
        "timeline": {"events": [
          {"type": "m.room.encrypted", "sender": "@alice:example.org", "event_id": "$x1",
           "content": {"algorithm": "m.megolm.v1.aes-sha2", "ciphertext": "AwgAEn", "session_id": "s",
                       "device_id": "D", "sender_key": "k"}}
        ]}
      },
      "!plain:example.org": {"timeline": {"events": [
        {"type": "m.room.message", "sender": "@alice:example.org", "event_id": "$p1",
         "content": {"msgtype": "m.text", "body": "!help"}}
      ]}}
    }}}
    """#

  @Test("encryption state marks a room encrypted, also on the first sync; encrypted events are never commands")
  func encryptionState() throws {
    for isInitial in [true, false] {
      var directory = MatrixRoomDirectory()
      let batch = interpreter.interpret(try decode(Self.encryptedRoom), directory: &directory, isInitial: isInitial)
      #expect(batch.encryptedRooms == ["!e2ee:example.org"])
      #expect(directory.encrypted == ["!e2ee:example.org"])
      #expect(batch.messages.map(\.messageID) == (isInitial ? [] : ["$p1"]))
    }
  }

  /// A room whose state was missed: only its timeline shows encryption.
  static func encryptedTimeline(sender: String) -> String {
    #"""
    {"next_batch": "s7", "rooms": {"join": {"!e2ee:example.org": {"timeline": {"events": [
      {"type": "m.room.encrypted", "sender": "\#(sender)", "event_id": "$x2",
       "content": {"algorithm": "m.megolm.v1.aes-sha2", "ciphertext": "AwgAEn"}},
      {"type": "m.room.encrypted", "sender": "\#(sender)", "event_id": "$x3", "content": {}}
    ]}}}}}
    """#
  }

  @Test("an encrypted event from someone else marks the room; the bot's own and old ones do not")
  func encryptedEvents() throws {
    var directory = MatrixRoomDirectory()
    let other = interpreter.interpret(
      try decode(Self.encryptedTimeline(sender: "@alice:example.org")), directory: &directory, isInitial: false)
    #expect(other.encryptedRooms == ["!e2ee:example.org"], "one entry per room, however many events")
    #expect(other.messages.isEmpty)
    #expect(directory.encrypted == ["!e2ee:example.org"])

    var ownDirectory = MatrixRoomDirectory()
    let own = interpreter.interpret(
      try decode(Self.encryptedTimeline(sender: "@bot:example.org")), directory: &ownDirectory, isInitial: false)
    #expect(own.encryptedRooms.isEmpty)
    #expect(ownDirectory.encrypted.isEmpty)

    var historyDirectory = MatrixRoomDirectory()
    let history = interpreter.interpret(
      try decode(Self.encryptedTimeline(sender: "@alice:example.org")), directory: &historyDirectory, isInitial: true)
    #expect(history.encryptedRooms.isEmpty, "skipped history does not count")
  }

  @Test("leaving an encrypted room forgets its encryption")
  func leavingForgetsEncryption() throws {
    let json = #"""
      {"next_batch": "s8", "rooms": {"leave": {"!e2ee:example.org": {"timeline": {"events": [
        {"type": "m.room.member", "state_key": "@bot:example.org", "sender": "@bot:example.org", "event_id": "$l",
         "content": {"membership": "leave"}}]}}}}}
      """#
    var directory = MatrixRoomDirectory()
    directory.joined = ["!e2ee:example.org"]
    directory.encrypted = ["!e2ee:example.org"]
    _ = interpreter.interpret(try decode(json), directory: &directory, isInitial: false)
    #expect(directory.encrypted.isEmpty)
  }

  @Test("creators are privileged only from room version 12 on")
  func creators() {
    #expect(MatrixPowerLevels.privilegedCreators(createEvent: ["room_version": "11"], sender: "@a:x").isEmpty)
    #expect(
      MatrixPowerLevels.privilegedCreators(
        createEvent: ["room_version": "12", "additional_creators": ["@b:x"]], sender: "@a:x") == ["@a:x", "@b:x"])
  }

  @Test("role mapping: thresholds and per-user overrides")
  func roleMapping() {
    let levels = MatrixPowerLevels(users: ["@a:x": 100, "@m:x": 60, "@v:x": 10], usersDefault: 0)
    let mapping = MatrixRoleMapping(memberPowerLevel: 50, adminPowerLevel: 100, userOverrides: ["@v:x": .member])
    #expect(mapping.role(of: "@a:x", in: levels) == .admin)
    #expect(mapping.role(of: "@m:x", in: levels) == .member)
    #expect(mapping.role(of: "@v:x", in: levels) == .member)
    #expect(mapping.role(of: "@nobody:x", in: levels) == .viewer)
    #expect(mapping.role(of: "@nobody:x", in: nil) == nil)
    let strict = MatrixRoleMapping(memberPowerLevel: 75, adminPowerLevel: 90)
    #expect(strict.role(of: "@m:x", in: levels) == .viewer)
  }
}
