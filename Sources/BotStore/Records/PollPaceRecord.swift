import Foundation
import GRDB

/// How long the poller waits before reading a source again, and why (BotCore's `PollPace`): one row per source, so
/// `awfulbot status` in another process shows it.
package struct PollPaceRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "pollPace"

  /// The source's name (`bookmarks`, `forum:273`, …).
  package var source: String
  package var seconds: Double
  /// Why the wait is what it is (`PollPace.Reason`'s raw value).
  package var reason: String
  package var quietReads: Int
  package var ceilingSeconds: Double
  /// The waits since the last read that found something, summed (nil: quiet for long).
  package var quietSeconds: Double?
  package var updatedAt: Date

  package init(
    source: String, seconds: Double, reason: String, quietReads: Int, ceilingSeconds: Double, quietSeconds: Double?,
    updatedAt: Date
  ) {
    self.source = source
    self.seconds = seconds
    self.reason = reason
    self.quietReads = quietReads
    self.ceilingSeconds = ceilingSeconds
    self.quietSeconds = quietSeconds
    self.updatedAt = updatedAt
  }
}
