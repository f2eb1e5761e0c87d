import ChatBridge

/// A room's `m.room.power_levels`, as far as the bot needs it: each user's level. From room version 12 on, the
/// room's creators (`m.room.create` sender and `additional_creators`) stand above every level and are not listed.
package struct MatrixPowerLevels: Sendable, Hashable {
  package var users: [String: Int]
  package var usersDefault: Int
  package var creators: Set<String>

  package init(users: [String: Int] = [:], usersDefault: Int = 0, creators: Set<String> = []) {
    self.users = users
    self.usersDefault = usersDefault
    self.creators = creators
  }

  /// The privileged creators of a room from its `m.room.create` event: empty before room version 12, where the
  /// creator is an ordinary entry of `users`.
  package static func privilegedCreators(createEvent content: JSONValue, sender: String?) -> Set<String> {
    let version = content["room_version"]?.stringValue ?? "1"
    guard let number = Int(version), number >= 12 else { return [] }
    var creators = Set((content["additional_creators"]?.arrayValue ?? []).compactMap(\.stringValue))
    if let sender { creators.insert(sender) }
    return creators
  }

  /// Reads the event content; missing or malformed fields take the spec's defaults.
  package init(content: JSONValue) {
    var users: [String: Int] = [:]
    for (user, level) in content["users"]?.objectValue ?? [:] {
      if let level = level.intValue { users[user] = level }
    }
    self.init(users: users, usersDefault: content["users_default"]?.intValue ?? 0)
  }

  /// A creator's level is unbounded; `Int.max` stands for it.
  package func level(of userID: String) -> Int {
    creators.contains(userID) ? Int.max : users[userID] ?? usersDefault
  }
}

/// Maps room power to the bot's roles: at least `member` power → member, at least `admin` → admin. Per-user
/// overrides from the config win over power either way (they may also lower someone).
package struct MatrixRoleMapping: Sendable, Hashable, Codable {
  package var memberPowerLevel: Int
  package var adminPowerLevel: Int
  package var userOverrides: [String: Role]

  package init(memberPowerLevel: Int = 50, adminPowerLevel: Int = 100, userOverrides: [String: Role] = [:]) {
    self.memberPowerLevel = memberPowerLevel
    self.adminPowerLevel = adminPowerLevel
    self.userOverrides = userOverrides
  }

  /// The role power grants; nil when the room's power levels are not known yet.
  package func role(of userID: String, in powerLevels: MatrixPowerLevels?) -> Role? {
    if let override = userOverrides[userID] { return override }
    guard let powerLevels else { return nil }
    let level = powerLevels.level(of: userID)
    if level >= adminPowerLevel { return .admin }
    if level >= memberPowerLevel { return .member }
    return .viewer
  }
}
