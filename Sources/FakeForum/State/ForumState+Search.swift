import Foundation

/// The forum's search over the stored posts (synthetic posts of generated threads are not searched): every word of
/// the query in a post's text, case-insensitive, within one thread (`threadid:N` at the start of the query) and the
/// forums asked for (`forums[]`, none or `-1` is every forum), newest post first.
extension ForumState {
  /// What a search came to.
  enum SearchOutcome {
    case found(qid: Int)
    /// The account searched within the search limit: the limit and the seconds left.
    case tooSoon(limit: Int, remaining: Int)
  }

  func runSearch(user: Int, query: String, forumIDs: [Int]) -> SearchOutcome {
    if let wait = searches.wait(user: user, now: now()) {
      return .tooSoon(limit: wait.limit, remaining: wait.remaining)
    }
    let (threadID, words) = Self.parse(query)
    let forums = Set(forumIDs.filter { $0 > 0 })
    var found: [FakePost] = []
    if !words.isEmpty {
      for thread in allThreads() {
        if let threadID, thread.id != threadID { continue }
        if !forums.isEmpty, !forums.contains(thread.forumID) { continue }
        for postID in thread.postIDs {
          guard let post = threads.post(postID) else { continue }
          let text = Self.plainText(post.body).lowercased()
          if words.allSatisfy({ text.contains($0) }) { found.append(post) }
        }
      }
    }
    found.sort { ($0.date, $0.id) > ($1.date, $1.id) }
    let search = SearchStore.Search(
      id: 0, userID: user, query: query, words: words, threadID: threadID, forumIDs: forumIDs,
      postIDs: found.map(\.id))
    return .found(qid: searches.add(search, now: now()))
  }

  /// Changes the search settings (`POST /_fake/search`).
  package func setSearchSettings(floodSeconds: Int?, perPage: Int?) {
    if let floodSeconds { searches.floodSeconds = max(0, floodSeconds) }
    if let perPage { searches.perPage = min(max(1, perPage), 100) }
  }

  /// Every thread, in forum order.
  private func allThreads() -> [FakeThread] {
    var result: [FakeThread] = []
    var queue = forums.groups
    while !queue.isEmpty {
      let node = queue.removeFirst()
      result += threads.sortedThreadIDs(forum: node.id).compactMap { threads.thread($0) }
      queue += forums.children(of: node)
    }
    return result
  }

  /// `threadid:N ` at the start, then the words (lower-cased, quotes dropped).
  static func parse(_ query: String) -> (threadID: Int?, words: [String]) {
    var words = query.split(whereSeparator: \.isWhitespace).map(String.init)
    var threadID: Int?
    if let first = words.first, first.lowercased().hasPrefix("threadid:") {
      threadID = Int(first.dropFirst("threadid:".count))
      words.removeFirst()
    }
    let cleaned = words.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased() }
    return (threadID, cleaned.filter { !$0.isEmpty })
  }

  /// A post's text as a reader sees it: its HTML without tags, entities decoded.
  static func plainText(_ body: FakePostBody) -> String {
    let html = PageContext.html(body)
    let stripped = html.replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)
    return Self.decodeEntities(stripped).split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  private static func decodeEntities(_ text: String) -> String {
    var out = text
    for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
      out = out.replacingOccurrences(of: entity, with: character)
    }
    return out
  }
}
