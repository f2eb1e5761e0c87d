/// How far each user has read each thread they opened (the forum's "last seen" markers).
struct ReadMarkerStore {
  /// user → thread → index of the last post read (1-based). No entry: never opened.
  private var lastReadByUser: [Int: [Int: Int]] = [:]

  func lastRead(user: Int, thread: Int) -> Int? { lastReadByUser[user]?[thread] }

  /// nil forgets the marker, as if the thread had never been opened.
  mutating func setLastRead(_ index: Int?, user: Int, thread: Int) {
    lastReadByUser[user, default: [:]][thread] = index
  }
}
