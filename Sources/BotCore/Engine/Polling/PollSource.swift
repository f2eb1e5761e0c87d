/// Something the poller reads on its own schedule, with its own health and backoff.
package enum PollSource: Sendable, Hashable, CustomStringConvertible {
  case bookmarks
  case announcements
  /// New threads of one forum.
  case forum(id: String)
  /// The bot account's private-message inbox (only while rooms are configured for it).
  case privateMessages
  /// The Leper's Colony (only while a room follows it).
  case lepers

  /// The health key: `bookmarks`, `announcements`, `forum:<id>`, `privateMessages`, `lepers`.
  package var name: String {
    switch self {
    case .bookmarks: "bookmarks"
    case .announcements: "announcements"
    case .forum(let id): "forum:\(id)"
    case .privateMessages: "privateMessages"
    case .lepers: "lepers"
    }
  }

  /// The source a health key names (see `name`); nil for a key this version does not know.
  package init?(name: String) {
    switch name {
    case "bookmarks": self = .bookmarks
    case "announcements": self = .announcements
    case "privateMessages": self = .privateMessages
    case "lepers": self = .lepers
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
    case .lepers: "the Leper's Colony"
    }
  }

  package var description: String { name }
}
