import Foundation
import GRDB

/// How polling one source (`bookmarks`, `announcements`, `forum:<id>`) has been going.
package struct SourceHealthRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "sourceHealth"

  package var source: String
  package var lastAttemptAt: Date?
  package var lastSuccessAt: Date?
  package var lastErrorAt: Date?
  package var lastError: String?
  /// Errors since the last success; drives the backoff.
  package var consecutiveErrors: Int
  package var totalErrors: Int
  package var totalPolls: Int
  package var nextAttemptAt: Date?

  package init(
    source: String, lastAttemptAt: Date? = nil, lastSuccessAt: Date? = nil, lastErrorAt: Date? = nil,
    lastError: String? = nil, consecutiveErrors: Int = 0, totalErrors: Int = 0, totalPolls: Int = 0,
    nextAttemptAt: Date? = nil
  ) {
    self.source = source
    self.lastAttemptAt = lastAttemptAt
    self.lastSuccessAt = lastSuccessAt
    self.lastErrorAt = lastErrorAt
    self.lastError = lastError
    self.consecutiveErrors = consecutiveErrors
    self.totalErrors = totalErrors
    self.totalPolls = totalPolls
    self.nextAttemptAt = nextAttemptAt
  }
}
