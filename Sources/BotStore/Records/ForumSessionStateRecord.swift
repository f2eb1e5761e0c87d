import Foundation
import GRDB

/// The forum session as the daemon's last heartbeat saw it. The table holds at most this one row.
package struct ForumSessionStateRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "forumSessionState"

  package var id: Int = 1
  package var loggedIn: Bool
  package var checkedAt: Date
  /// The wall in front of the forum at the heartbeat, as JSON (ForumModel's `ForumWallSighting`, which the store
  /// does not know); absent while the forum answers itself.
  package var wall: String?

  package init(loggedIn: Bool, checkedAt: Date, wall: String?) {
    self.loggedIn = loggedIn
    self.checkedAt = checkedAt
    self.wall = wall
  }
}
