import ChatBridge

/// A room's `m.room.power_levels`, as far as the bot needs it: each user's level. From room version 12 on, the
/// room's creators (`m.room.create` sender and `additional_creators`) stand above every level and are not listed.
package struct MatrixPowerLevels: MatrixEventContent, Hashable {
  package static let eventType = MatrixEventType.powerLevels

  package var users: [String: Int]
  package var usersDefault: Int
  /// Not part of the event: from the room's `m.room.create` (see `MatrixRoomCreate.privilegedCreators`).
  package var creators: Set<String>

  package init(users: [String: Int] = [:], usersDefault: Int = 0, creators: Set<String> = []) {
    self.users = users
    self.usersDefault = usersDefault
    self.creators = creators
  }

  /// Reads the event content; missing or malformed fields take the spec's defaults.
  package init(content: JSONValue) {
    self = content.decoded(as: MatrixPowerLevels.self) ?? MatrixPowerLevels()
  }

  /// `privilegedCreators` of the create event's open content.
  package static func privilegedCreators(createEvent content: JSONValue, sender: String?) -> Set<String> {
    privilegedCreators(createEvent: content.decoded(as: MatrixRoomCreate.self) ?? MatrixRoomCreate(), sender: sender)
  }

  /// The privileged creators of a room from its `m.room.create` event: empty before room version 12, where the
  /// creator is an ordinary entry of `users`.
  package static func privilegedCreators(createEvent content: MatrixRoomCreate, sender: String?) -> Set<String> {
    let version = content.roomVersion ?? "1"
    guard let number = Int(version), number >= 12 else { return [] }
    var creators = Set(content.additionalCreators)
    if let sender { creators.insert(sender) }
    return creators
  }

  enum CodingKeys: String, CodingKey {
    case users
    case usersDefault = "users_default"
  }

  /// Missing or malformed fields take the spec's defaults; a level that is not a number is left out.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let listed = container.lenient([String: JSONValue].self, forKey: .users) ?? [:]
    self.init(
      users: listed.compactMapValues(\.intValue), usersDefault: container.lenientInt(forKey: .usersDefault) ?? 0)
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(users, forKey: .users)
    try container.encode(usersDefault, forKey: .usersDefault)
  }

  /// A creator's level is unbounded; `Int.max` stands for it.
  package func level(of userID: String) -> Int {
    creators.contains(userID) ? Int.max : users[userID] ?? usersDefault
  }
}
