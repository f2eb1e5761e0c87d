import ChatBridge

/// `m.room.create`: the room's version and, from version 12 on, its creators besides the sender.
package struct MatrixRoomCreate: MatrixEventContent, Hashable {
  package static let eventType = MatrixEventType.roomCreate

  package var roomVersion: String?
  package var additionalCreators: [String]

  package init(roomVersion: String? = nil, additionalCreators: [String] = []) {
    self.roomVersion = roomVersion
    self.additionalCreators = additionalCreators
  }

  enum CodingKeys: String, CodingKey {
    case roomVersion = "room_version"
    case additionalCreators = "additional_creators"
  }

  /// Entries of `additional_creators` that are not strings are left out.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    roomVersion = container.lenient(String.self, forKey: .roomVersion)
    additionalCreators = (container.lenient([JSONValue].self, forKey: .additionalCreators) ?? []).compactMap(
      \.stringValue)
  }
}
