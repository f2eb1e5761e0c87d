import GRDB

/// What a room follows. Stored as its raw value (the text the column always held).
package enum SubscriptionKind: String, Sendable, Hashable, Codable, CaseIterable, DatabaseValueConvertible {
  /// Every bookmarked thread.
  case bookmarks
  /// Bookmarked threads with some star colours (argument: the colours' category ids, comma-separated).
  case stars
  /// One thread (argument: its id).
  case thread
  case announcements
  /// A forum's new threads (argument: its id).
  case forum
  /// The Leper's Colony: each new punishment.
  case lepers

  /// The kinds that relay posts of threads (the others relay announcements or new threads).
  package static let threadKinds: [SubscriptionKind] = [.bookmarks, .stars, .thread]
}
