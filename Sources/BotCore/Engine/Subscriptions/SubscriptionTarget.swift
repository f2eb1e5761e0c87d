import BotStore
import ChatBridge
import ForumModel

/// What a room follows.
package enum SubscriptionTarget: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Every bookmarked thread of the bot account.
  case bookmarks
  /// Bookmarked threads with one of these star colours.
  case stars([StarColor])
  /// One thread (what `watch` creates; the thread is also bookmarked so the bookmarks poll sees it).
  case thread(id: String)
  /// Forum announcements.
  case announcements
  /// New threads in a forum.
  case forum(id: String)
  /// The Leper's Colony's new entries.
  case lepers

  package var description: String {
    switch self {
    case .bookmarks: "all bookmarks"
    case .stars(let colours): "bookmarks starred " + colours.map(\.name).joined(separator: ", ")
    case .thread(let id): "thread \(id)"
    case .announcements: "announcements"
    case .forum(let id): "new threads in forum \(id)"
    case .lepers: "the Leper's Colony"
    }
  }

  /// Store encoding: (`kind`, `argument`).
  var storeKey: (kind: SubscriptionKind, argument: String) {
    switch self {
    case .bookmarks: (.bookmarks, "")
    case .stars(let colours):
      (.stars, Set(colours).map(\.rawValue).sorted().map(String.init).joined(separator: ","))
    case .thread(let id): (.thread, id)
    case .announcements: (.announcements, "")
    case .forum(let id): (.forum, id)
    case .lepers: (.lepers, "")
    }
  }

  init(kind: SubscriptionKind, argument: String) {
    switch kind {
    case .bookmarks: self = .bookmarks
    case .stars:
      self = .stars(argument.split(separator: ",").compactMap { Int($0).flatMap(StarColor.init(rawValue:)) })
    case .thread: self = .thread(id: argument)
    case .announcements: self = .announcements
    case .forum: self = .forum(id: argument)
    case .lepers: self = .lepers
    }
  }

  /// Whether a bookmarked thread with this star falls under the target.
  func covers(threadID: String, star: StarColor?) -> Bool {
    switch self {
    case .bookmarks: true
    case .stars(let colours): star.map(colours.contains) ?? false
    case .thread(let id): id == threadID
    case .announcements, .forum, .lepers: false
    }
  }
}
