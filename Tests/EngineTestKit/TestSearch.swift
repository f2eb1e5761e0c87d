import ForumModel
import Foundation
import Synchronization

/// The forum's search as `TestForum` answers it: every word of the query in a post's text (case-insensitive), within
/// the thread `threadid:N` names and the forums asked for, newest post first, `pageSize` hits a page; or the refusal
/// a test set (`SearchRefusal`: not Platinum, too soon). The snippet is the post's text with each matched word in
/// italic, as the forum's `<em>` reads.
package final class TestSearch: Sendable {
  private struct State {
    var refusal: (any Error)?
    var pageSize = 20
    var searches: [String: (words: [String], hits: [SearchResult])] = [:]
    var nextID = 1
  }

  private let state = Mutex(State())

  package init() {}

  /// Every search throws `error` while it is set (e.g. `SearchRefusal(.requiresPlatinum, message: …)`).
  package func setRefusal(_ error: (any Error)?) { state.withLock { $0.refusal = error } }
  package func setPageSize(_ size: Int) { state.withLock { $0.pageSize = max(1, size) } }

  func search(query: String, forumIDs: [String], threads: [TestForum.Thread]) throws -> SearchResultsPage {
    try state.withLock { if let refusal = $0.refusal { throw refusal } }
    var words = query.split(whereSeparator: \.isWhitespace).map(String.init)
    var threadID: String?
    if let first = words.first, first.hasPrefix("threadid:") {
      threadID = String(first.dropFirst("threadid:".count))
      words.removeFirst()
    }
    var hits: [(Post, TestForum.Thread)] = []
    for thread in threads {
      if let threadID, thread.id != threadID { continue }
      if !forumIDs.isEmpty, !forumIDs.contains(thread.forumID) { continue }
      for post in thread.posts {
        let text = plainText(post.body)
        if !words.isEmpty, words.allSatisfy({ text.range(of: $0, options: .caseInsensitive) != nil }) {
          hits.append((post, thread))
        }
      }
    }
    hits.sort { ($0.0.date ?? .distantPast, $0.0.id) > ($1.0.date ?? .distantPast, $1.0.id) }
    let results = hits.enumerated().map { offset, hit in
      SearchResult(
        number: offset + 1, postID: hit.0.id, threadID: hit.1.id, threadTitle: hit.1.title, forumID: hit.1.forumID,
        forumTitle: hit.1.forumName ?? "Forum \(hit.1.forumID)",
        author: ForumUserReference(name: hit.0.author.name, id: nil),
        date: hit.0.date, dateText: nil, snippetHTML: "", snippet: Self.snippet(plainText(hit.0.body), words: words))
    }
    let id = state.withLock { state in
      let id = "q\(state.nextID)"
      state.nextID += 1
      state.searches[id] = (words, results)
      return id
    }
    return try page(queryID: id, page: 1)
  }

  func page(queryID: String, page: Int) throws -> SearchResultsPage {
    try state.withLock { state in
      guard let search = state.searches[queryID] else {
        throw ForumPageError.standard(title: "Special Message From Senor Lowtax", message: "Invalid search specified.")
      }
      let pages = max(1, (search.hits.count + state.pageSize - 1) / state.pageSize)
      let number = min(max(page, 1), pages)
      let slice = Array(search.hits.dropFirst((number - 1) * state.pageSize).prefix(state.pageSize))
      return SearchResultsPage(
        queryID: queryID,
        info: search.hits.isEmpty ? "There were no results for your search." : "\(search.hits.count) results found.",
        results: slice, navigation: pages > 1 ? PageNavigation(current: number, total: pages) : nil,
        totalResults: search.hits.isEmpty ? nil : search.hits.count)
    }
  }

  private static func snippet(_ text: String, words: [String]) -> [RichText] {
    var out: [RichText] = []
    var rest = Substring(text)
    while let match = words.lazy.compactMap({ rest.range(of: $0, options: .caseInsensitive) }).min(by: {
      $0.lowerBound < $1.lowerBound
    }) {
      if match.lowerBound > rest.startIndex { out.append(.text(String(rest[..<match.lowerBound]))) }
      out.append(.italic([.text(String(rest[match]))]))
      rest = rest[match.upperBound...]
    }
    if !rest.isEmpty { out.append(.text(String(rest))) }
    return out
  }
}
