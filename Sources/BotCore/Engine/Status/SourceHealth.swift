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
  /// The wait between reads after the last success and why (see `PollPace`); nil before the first success.
  package var pace: PollPace?

  package var isHealthy: Bool { consecutiveErrors == 0 }

  package init(
    source: String, lastAttempt: Date? = nil, lastSuccess: Date? = nil, lastErrorAt: Date? = nil,
    lastError: String? = nil, consecutiveErrors: Int = 0, totalErrors: Int = 0, totalPolls: Int = 0,
    nextAttempt: Date? = nil, pace: PollPace? = nil
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
    self.pace = pace
  }

  /// The pace in words for `status` ("every 10 s: threads moved at the last check"), when the source has one.
  package var paceExplanation: String? {
    guard let pace, let source = PollSource(name: source) else { return nil }
    return pace.explanation(for: source)
  }
}
