import ForumModel

/// A subscription as written in the config: `bookmarks`, `bookmarks:red`, `announcements`, `thread:123`, `forum:46`,
/// `lepers`.
package enum RoomSubscriptionSpec: Sendable, Hashable, CustomStringConvertible {
  case bookmarks(stars: [StarColor])
  case announcements
  case thread(id: String)
  case forum(id: String)
  case lepers

  package init?(parsing text: String) {
    let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
    switch (parts.first, parts.count) {
    case ("bookmarks", 1): self = .bookmarks(stars: [])
    case ("bookmarks", 2):
      let stars = parts[1].split(separator: ",").compactMap { StarColor(name: String($0)) }
      guard !stars.isEmpty, stars.count == parts[1].split(separator: ",").count else { return nil }
      self = .bookmarks(stars: stars)
    case ("announcements", 1): self = .announcements
    case ("lepers", 1): self = .lepers
    case ("thread", 2) where !parts[1].isEmpty && parts[1].allSatisfy(\.isNumber): self = .thread(id: parts[1])
    case ("forum", 2) where !parts[1].isEmpty && parts[1].allSatisfy(\.isNumber): self = .forum(id: parts[1])
    default: return nil
    }
  }

  /// As the config writes it: `init(parsing:)` reads it back.
  package var description: String {
    switch self {
    case .bookmarks(let stars) where stars.isEmpty: "bookmarks"
    case .bookmarks(let stars): "bookmarks:" + stars.map(\.name).joined(separator: ",")
    case .announcements: "announcements"
    case .thread(let id): "thread:\(id)"
    case .forum(let id): "forum:\(id)"
    case .lepers: "lepers"
    }
  }
}
