import ForumModel

/// Each user's bookmarked threads and their star colours.
struct BookmarkStore {
  /// user → thread → star.
  private var starsByUser: [Int: [Int: StarColor]] = [:]

  /// A user's bookmarks: thread → star.
  func stars(user: Int) -> [Int: StarColor] { starsByUser[user] ?? [:] }

  func star(user: Int, thread: Int) -> StarColor? { starsByUser[user]?[thread] }

  mutating func set(_ star: StarColor, user: Int, thread: Int) { starsByUser[user, default: [:]][thread] = star }

  mutating func remove(user: Int, thread: Int) { starsByUser[user]?[thread] = nil }
}
