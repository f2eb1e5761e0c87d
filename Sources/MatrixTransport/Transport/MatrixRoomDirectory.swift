import MatrixModel

/// What the transport knows about its rooms, kept current from sync: the bot's joined rooms, each room's power
/// levels and member display names, which rooms are direct chats, and which are end-to-end encrypted.
package struct MatrixRoomDirectory: Sendable, Hashable {
  package var joined: Set<String> = []
  package var powerLevels: [String: MatrixPowerLevels] = [:]
  package var displayNames: [String: [String: String]] = [:]
  package var direct: Set<String> = []
  /// Privileged creators per room (room version 12 and later).
  package var creators: [String: Set<String>] = [:]
  /// Joined rooms with `m.room.encryption` state (or encrypted traffic): the bot cannot read commands there.
  package var encrypted: Set<String> = []

  package init() {}

  /// Drops everything known about a room the bot is no longer in (it is no longer a direct chat either).
  mutating func forget(room: String) {
    joined.remove(room)
    direct.remove(room)
    powerLevels[room] = nil
    displayNames[room] = nil
    creators[room] = nil
    encrypted.remove(room)
  }

  /// The room's power levels with its creators folded in; nil while the power levels are unknown.
  func effectivePowerLevels(in room: String) -> MatrixPowerLevels? {
    guard var levels = powerLevels[room] else { return nil }
    levels.creators = creators[room] ?? []
    return levels
  }

  /// The name to address a user by: the room display name, else the user id's localpart.
  func displayName(of userID: String, in room: String) -> String {
    if let name = displayNames[room]?[userID], !name.isEmpty { return name }
    return String(userID.dropFirst().prefix { $0 != ":" })
  }
}
