import ChatBridge
import Foundation

/// What one poll of one source did.
package struct PollReport: Sendable, Hashable {
  package var source: PollSource
  /// Forum requests made (pages of lists plus thread pages).
  package var requests = 0
  /// Threads (or forum threads / announcements) found new or changed.
  package var changed = 0
  /// Posts past the cursors that were relayed (before per-room filters).
  package var newPosts = 0
  /// Outbox rows queued plus items held.
  package var queued = 0
  /// The error that ended the poll, described; nil on success.
  package var error: String?
  /// When this source should be polled next (backoff after an error).
  package var nextAttempt: Date?

  package init(source: PollSource) {
    self.source = source
  }

  package var succeeded: Bool { error == nil }
}
