import ChatBridge
import Foundation

/// Why a post did (or did not) reach a room.
package struct WhyAnswer: Sendable, Hashable {
  /// One outbox row or held item about the post.
  package struct Entry: Sendable, Hashable {
    /// `post`, `summary`, `alert`, `held` …
    package var kind: String
    /// The subscription or alert that matched, in words.
    package var reason: String
    /// `pending`, `delivered`, `failed`, `dead` or `held`.
    package var state: String
    package var queuedAt: Date
    package var deliveredAt: Date?
    package var attempts: Int
    package var lastError: String?

    package init(
      kind: String, reason: String, state: String, queuedAt: Date, deliveredAt: Date? = nil, attempts: Int = 0,
      lastError: String? = nil
    ) {
      self.kind = kind
      self.reason = reason
      self.state = state
      self.queuedAt = queuedAt
      self.deliveredAt = deliveredAt
      self.attempts = attempts
      self.lastError = lastError
    }
  }

  package var postID: String
  package var threadID: String?
  package var threadTitle: String?
  package var entries: [Entry]
  /// When nothing was queued: the likely reason in words (not subscribed, before the cursor, filtered …).
  package var explanation: String?

  /// Set when the id asked about is a thread the bot knows (its title in words): the asker meant a thread.
  package var threadNamed: String?

  package init(
    postID: String, threadID: String?, threadTitle: String?, entries: [Entry], explanation: String?,
    threadNamed: String? = nil
  ) {
    self.threadNamed = threadNamed
    self.postID = postID
    self.threadID = threadID
    self.threadTitle = threadTitle
    self.entries = entries
    self.explanation = explanation
  }
}
