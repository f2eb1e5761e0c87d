import Foundation
import GRDB

/// A room a configuration reload paused because its transport's settings stopped naming it: only such a room is
/// resumed when the settings name it again (a room paused by hand, or after a kick, stays paused).
package struct ConfigPausedRoomRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "configPausedRoom"

  package var transport: String
  package var room: String
  package var pausedAt: Date

  package init(transport: String, room: String, pausedAt: Date) {
    self.transport = transport
    self.room = room
    self.pausedAt = pausedAt
  }
}
