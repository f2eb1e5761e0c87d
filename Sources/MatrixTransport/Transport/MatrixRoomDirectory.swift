/// What the transport knows about its rooms, kept current from sync: the bot's joined rooms, each room's power
/// levels and member display names, and which rooms are direct chats.
package struct MatrixRoomDirectory: Sendable, Hashable {
  package var joined: Set<String> = []
  package var powerLevels: [String: MatrixPowerLevels] = [:]
  package var displayNames: [String: [String: String]] = [:]
  package var direct: Set<String> = []

  package init() {}

  mutating func forget(room: String) {
    joined.remove(room)
    powerLevels[room] = nil
    displayNames[room] = nil
  }

  /// The name to address a user by: the room display name, else the user id's localpart.
  func displayName(of userID: String, in room: String) -> String {
    if let name = displayNames[room]?[userID], !name.isEmpty { return name }
    return String(userID.dropFirst().prefix { $0 != ":" })
  }
}
