import ChatBridge
import MatrixModel
import Testing

/// The typed event content (MatrixModel) reads what clients send as the key-by-key reads of open JSON did, and
/// writes what the bot always wrote.
@Suite("Matrix event content")
struct MatrixEventContentTests {
  static func event(_ type: String, _ content: JSONValue) -> MatrixEvent {
    MatrixEvent(type: type, sender: "@a:example.org", eventID: "$e", content: content)
  }

  @Test("a field of the wrong kind reads as absent, the rest of the event still reads, unknown fields are ignored")
  func lenient() throws {
    let message = try #require(
      Self.event(
        MatrixEventType.roomMessage,
        [
          "msgtype": "m.text", "body": "!help", "format": 7, "com.example.extra": ["x": true],
          "m.relates_to": ["m.in_reply_to": ["event_id": "$parent"], "is_falling_back": "yes"],
        ]
      ).content(as: MatrixRoomMessage.self))
    #expect(message.msgtype == MatrixMessageType.text)
    #expect(message.body == "!help")
    #expect(message.format == nil)
    #expect(message.relatesTo?.replyTo == "$parent")
    #expect(message.relatesTo?.isFallingBack == false)
    #expect(!message.isEdit)
  }

  @Test("content of another type, or that is not an object, reads as nothing")
  func wrongTypeOrShape() {
    #expect(Self.event(MatrixEventType.reaction, ["body": "x"]).content(as: MatrixRoomMessage.self) == nil)
    #expect(Self.event(MatrixEventType.roomMessage, "text").content(as: MatrixRoomMessage.self) == nil)
  }

  @Test("m.new_content of any kind makes an edit")
  func edit() throws {
    let message = try #require(
      Self.event(MatrixEventType.roomMessage, ["msgtype": "m.text", "body": "* x", "m.new_content": .null])
        .content(as: MatrixRoomMessage.self))
    #expect(message.isEdit)
  }

  @Test("power levels given as numeric strings count; a level that is no number is left out")
  func powerLevels() throws {
    let levels = try #require(
      Self.event(MatrixEventType.powerLevels, ["users": ["@a:x": "50", "@b:x": 100, "@c:x": "high"]])
        .content(as: MatrixPowerLevels.self))
    #expect(levels.users == ["@a:x": 50, "@b:x": 100])
    #expect(levels.usersDefault == 0)
  }

  @Test("what the bot writes leaves out what it does not set, and says is_falling_back only in a thread")
  func encoding() {
    #expect(
      MatrixReaction(to: "$t", key: "👍").json
        == ["m.relates_to": ["rel_type": "m.annotation", "event_id": "$t", "key": "👍"]])
    var notice = MatrixRoomMessage(msgtype: MatrixMessageType.notice, body: "hi")
    notice.mentions = MatrixMentions()
    notice.relatesTo = .reply(to: "$c")
    #expect(
      notice.json
        == [
          "msgtype": "m.notice", "body": "hi", "m.mentions": [:], "m.relates_to": ["m.in_reply_to": ["event_id": "$c"]],
        ])
    #expect(
      MatrixRelation.thread(root: "$r", latest: "$l").json
        == [
          "rel_type": "m.thread", "event_id": "$r", "is_falling_back": true, "m.in_reply_to": ["event_id": "$l"],
        ])
    #expect(MatrixRedaction(reason: nil).json == [:])
  }

  @Test("an Olm message keeps one ciphertext per device; an entry that is not an object is left out")
  func olmCiphertext() throws {
    let encrypted = try #require(
      Self.event(
        MatrixEventType.roomEncrypted,
        [
          "algorithm": "m.olm.v1.curve25519-aes-sha2", "sender_key": "K",
          "ciphertext": ["mine": ["type": 0, "body": "B"], "odd": "x"],
        ]
      ).content(as: MatrixEncrypted.self))
    #expect(encrypted.olmCiphertext(for: "mine") == MatrixOlmCiphertext(type: 0, body: "B"))
    #expect(encrypted.olmCiphertext(for: "odd") == nil)
    #expect(encrypted.megolmCiphertext == nil)
  }
}

extension MatrixRelation {
  fileprivate var json: JSONValue { (try? JSONValue.encoding(self)) ?? [:] }
}
