/// Something the poller reads on its own schedule, with its own health and backoff.
package enum PollSource: Sendable, Hashable, CustomStringConvertible {
  case bookmarks
  case announcements
  /// New threads of one forum.
  case forum(id: String)
  /// The bot account's private-message inbox (only while rooms are configured for it).
  case privateMessages

  /// The health key: `bookmarks`, `announcements`, `forum:<id>`, `privateMessages`.
  package var name: String {
    switch self {
    case .bookmarks: "bookmarks"
    case .announcements: "announcements"
    case .forum(let id): "forum:\(id)"
    case .privateMessages: "privateMessages"
    }
  }

  package var description: String { name }
}
