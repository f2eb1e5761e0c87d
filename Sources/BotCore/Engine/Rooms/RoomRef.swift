/// A room on one transport: the unit subscriptions, settings and the outbox are kept per.
package struct RoomRef: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The transport's configured name (`matrix`, `irc-libera`, `console`).
  package var transport: String
  /// The transport's room id (Matrix room id, IRC channel, console name).
  package var room: String

  package init(transport: String, room: String) {
    self.transport = transport
    self.room = room
  }

  package var description: String { "\(transport):\(room)" }
}
