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
  /// How long a wall in front of the forum asked the bot to wait (`Retry-After`); the next poll waits at least that.
  package var retryAfterSeconds: Int?
  /// The poll failed because the database's disk is full (its `error` says so).
  package var storageFull = false
  /// When this source should be polled next (backoff after an error).
  package var nextAttempt: Date?
  /// Pages of the list read (bookmarks pages, or pages of a watched forum).
  package var listPages = 0
  /// The bookmarks list was read to its end: a full sweep (the first read, a fall-back, or the last step of a sweep
  /// read a page at a time).
  package var fullSweep = false
  /// The list was not newest-first, so the read could not stop early (bookmarks: it fell back to a full sweep).
  package var listUnordered = false
  /// The wait chosen for the next read after a success, with its reason.
  package var pace: PollPace?

  package init(source: PollSource) {
    self.source = source
  }

  package var succeeded: Bool { error == nil }
}
