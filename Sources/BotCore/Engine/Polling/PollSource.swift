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

  /// The source a health key names (see `name`); nil for a key this version does not know.
  package init?(name: String) {
    switch name {
    case "bookmarks": self = .bookmarks
    case "announcements": self = .announcements
    case "privateMessages": self = .privateMessages
    default:
      guard name.hasPrefix("forum:") else { return nil }
      self = .forum(id: String(name.dropFirst("forum:".count)))
    }
  }

  /// How chat answers name the source: "bookmarks", "announcements", "forum 46", "private messages".
  package var readableName: String {
    switch self {
    case .bookmarks: "bookmarks"
    case .announcements: "announcements"
    case .forum(let id): "forum \(id)"
    case .privateMessages: "private messages"
    }
  }

  package var description: String { name }
}
