import ChatBridge
import Foundation

/// How polling one source has been going (`bookmarks`, `announcements`, `forum:<id>`).
package struct SourceHealth: Sendable, Hashable {
  package var source: String
  package var lastAttempt: Date?
  package var lastSuccess: Date?
  package var lastErrorAt: Date?
  /// The last error, described for people (never contains secrets).
  package var lastError: String?
  /// Errors since the last success; 0 means healthy.
  package var consecutiveErrors: Int
  package var totalErrors: Int
  package var totalPolls: Int
  package var nextAttempt: Date?

  package var isHealthy: Bool { consecutiveErrors == 0 }

  package init(
    source: String, lastAttempt: Date? = nil, lastSuccess: Date? = nil, lastErrorAt: Date? = nil,
    lastError: String? = nil, consecutiveErrors: Int = 0, totalErrors: Int = 0, totalPolls: Int = 0,
    nextAttempt: Date? = nil
  ) {
    self.source = source
    self.lastAttempt = lastAttempt
    self.lastSuccess = lastSuccess
    self.lastErrorAt = lastErrorAt
    self.lastError = lastError
    self.consecutiveErrors = consecutiveErrors
    self.totalErrors = totalErrors
    self.totalPolls = totalPolls
    self.nextAttempt = nextAttempt
  }
}
