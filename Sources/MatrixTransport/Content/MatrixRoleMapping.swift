import ChatBridge
import MatrixModel

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
