import GRDB

/// How a room gets posts, as stored (the engine's `RelayMode` adds the threshold and the schedule).
package enum RoomModeKind: String, Sendable, Hashable, Codable, CaseIterable, DatabaseValueConvertible {
  case each
  case summary
  case digest
}
