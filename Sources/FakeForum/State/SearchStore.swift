import Foundation

/// The forum's search as the emulator keeps it: each search made (`qid`, whose account, what it asked and the posts
/// it found, newest first), when each account last searched, and the two settings the admin API changes.
struct SearchStore {
  struct Search: Sendable, Hashable {
    var id: Int
    var userID: Int
    /// `q` as sent (`threadid:N` included).
    var query: String
    /// The words searched for, lower-cased, for the snippets' `<em>`.
    var words: [String]
    var threadID: Int?
    var forumIDs: [Int]
    var postIDs: [Int]
  }

  private(set) var searches: [Int: Search] = [:]
  private var nextID = 7_000_001
  private var lastSearch: [Int: Date] = [:]
  /// The least time between two searches of one account, in seconds; 0 (the default) is no limit.
  var floodSeconds = 0
  /// Hits a results page lists.
  var perPage = 20

  /// The most searches kept; the oldest go first (the forum forgets old searches too).
  private let maximumKept = 500

  /// Seconds the account must still wait before it may search, or nil when it may.
  func wait(user: Int, now: Date) -> (limit: Int, remaining: Int)? {
    guard floodSeconds > 0, let last = lastSearch[user] else { return nil }
    let left = Double(floodSeconds) - now.timeIntervalSince(last)
    guard left > 0 else { return nil }
    return (floodSeconds, max(1, Int(left.rounded(.up))))
  }

  mutating func add(_ search: Search, now: Date) -> Int {
    var search = search
    search.id = nextID
    nextID += 1
    searches[search.id] = search
    lastSearch[search.userID] = now
    if searches.count > maximumKept, let oldest = searches.keys.min() { searches[oldest] = nil }
    return search.id
  }

  func search(_ id: Int) -> Search? { searches[id] }
}
