import ChatBridge

/// The plaintext inside a Megolm message: the room event (type and content) and the room it was sent in, so it
/// cannot be replayed into another room.
package struct MatrixMegolmPayload: Sendable, Hashable, Codable {
  package var type: String?
  package var content: JSONValue?
  package var roomID: String?

  package init(type: String, content: JSONValue, roomID: String) {
    self.type = type
    self.content = content
    self.roomID = roomID
  }

  enum CodingKeys: String, CodingKey {
    case type
    case content
    case roomID = "room_id"
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    type = container.lenient(String.self, forKey: .type)
    content = container.lenient(JSONValue.self, forKey: .content)
    roomID = container.lenient(String.self, forKey: .roomID)
  }
}
