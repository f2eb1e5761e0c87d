import ChatBridge
import Foundation

/// What a summary-mode row stands for, stored in its outbox payload next to the message (key `summaryBurst`), so
/// the dispatcher can send the next summary of the same thread as an edit carrying the running total.
struct SummaryBurst: Codable, Sendable, Hashable {
  var threadID: String
  var threadTitle: String
  /// Posts this row stands for (not the running total), and their authors in post order.
  var count: Int
  var authors: [String]
  var latestPostID: String?
  var latestAuthor: String?
  /// Set when the dispatcher decided to send this row as an edit; stored before the send, so a resend after a
  /// crash repeats the same edit instead of deciding (and counting) again.
  var edit: SummaryEdit?

  /// Posts since the burst's first message, this row included.
  var totalCount: Int { edit?.total ?? count }
  /// Authors since the burst's first message, each once, in order of first appearance.
  var totalAuthors: [String] { edit?.authors ?? Self.unique(authors) }

  /// The edit this row becomes when it follows `previous` (a delivered summary row of the same room) within
  /// `window` of the burst's first message, or nil when it must go out as a new message.
  ///
  /// The window runs from the burst's *first* message, not the latest edit: an edit does not notify anyone and an
  /// old message has scrolled out of view, so after the window a busy thread gets a fresh message people see.
  func edit(following previous: SummaryBurst, receipt: String, deliveredAt: Date, now: Date, window: TimeInterval)
    -> SummaryEdit?
  {
    guard previous.threadID == threadID else { return nil }
    let original = previous.edit?.original ?? receipt
    let originalDeliveredAt = previous.edit?.originalDeliveredAt ?? deliveredAt
    guard now.timeIntervalSince(originalDeliveredAt) < window else { return nil }
    return SummaryEdit(
      original: original, originalDeliveredAt: originalDeliveredAt, total: previous.totalCount + count,
      authors: Self.unique(previous.totalAuthors + authors))
  }

  private static func unique(_ names: [String]) -> [String] {
    var seen = Set<String>()
    return names.filter { seen.insert($0).inserted }
  }
}

/// A summary row sent as an edit of the burst's first message.
struct SummaryEdit: Codable, Sendable, Hashable {
  /// Receipt of the burst's first message. Matrix edits must point at the original event, never at another edit.
  var original: String
  var originalDeliveredAt: Date
  /// Posts and authors since the burst started, this row included.
  var total: Int
  var authors: [String]
}
