import Foundation

/// The forum would not take a post (a reply, a private message) and said why in its own words: posting again too soon
/// after the account's last post (the flood check), a closed thread, or an account on probation. Nothing was posted.
/// The engine shows `description` as it is and may keep what was to be posted, to try again.
package struct PostingRefusal: ForumFailure, Sendable, Hashable, Codable {
  package enum Reason: Sendable, Hashable, Codable {
    /// The flood check: the forum wants `interval` seconds between two posts of an account (when its sentence says)
    /// and `retryAfter` more seconds to pass before this one.
    case floodCheck(interval: Int?, retryAfter: Int)
    case threadClosed
    case probation
  }

  package var reason: Reason
  /// The forum's own sentence ("This forum requires that you wait 30 seconds between posts. Please try again in 12
  /// seconds.", "Sorry! This thread is closed!", the probation refusal or banner).
  package var message: String

  package init(_ reason: Reason, message: String) {
    self.reason = reason
    self.message = message
  }

  /// The flood check refusal in the forum's words (vBulletin's sentence), for stand-ins of the forum.
  package static func floodCheck(interval: Int, retryAfter: Int) -> PostingRefusal {
    PostingRefusal(
      .floodCheck(interval: interval, retryAfter: retryAfter),
      message:
        "This forum requires that you wait \(interval) seconds between posts. Please try again in \(retryAfter) seconds."
    )
  }

  /// Seconds until the forum takes a post again, for a flood check refusal; nil for the others (they last).
  package var retryAfter: Int? {
    if case .floodCheck(_, let seconds) = reason { return seconds }
    return nil
  }

  package var description: String { "The forum says: \(message)" }

  package var postingRefusal: PostingRefusal? { self }
}
