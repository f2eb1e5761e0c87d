/// Something the poller reads on its own schedule, with its own health and backoff.
package enum PollSource: Sendable, Hashable, CustomStringConvertible {
  case bookmarks
  case announcements
  /// New threads of one forum.
  case forum(id: String)

  /// The health key: `bookmarks`, `announcements`, `forum:<id>`.
  package var name: String {
    switch self {
    case .bookmarks: "bookmarks"
    case .announcements: "announcements"
    case .forum(let id): "forum:\(id)"
    }
  }

  package var description: String { name }
}
