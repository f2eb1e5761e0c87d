/// `m.room.member`: someone's membership of a room (the state key is their user id) and their name there.
package struct MatrixMember: MatrixEventContent, Hashable {
  package static let eventType = MatrixEventType.roomMember

  package var membership: String?
  package var displayname: String?
  /// On an invite: the room is a direct chat.
  package var isDirect: Bool?
  /// Why someone was kicked or banned, or left.
  package var reason: String?

  package init(membership: String) {
    self.membership = membership
  }

  enum CodingKeys: String, CodingKey {
    case membership
    case displayname
    case isDirect = "is_direct"
    case reason
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    membership = container.lenient(String.self, forKey: .membership)
    displayname = container.lenient(String.self, forKey: .displayname)
    isDirect = container.lenient(Bool.self, forKey: .isDirect)
    reason = container.lenient(String.self, forKey: .reason)
  }
}
