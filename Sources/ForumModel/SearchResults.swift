import Foundation

/// One hit of the forum's search (`query.php?action=results`): the post that matched, where it is, who wrote it and
/// when, and the forum's snippet of it with the matched words marked.
package struct SearchResult: Sendable, Hashable, Codable {
  /// The forum's own number of the hit across every page of the search (`.result_number`, "21." on page 2).
  package var number: Int?
  /// The post that matched (`postid` of the thread title's link).
  package var postID: String
  /// The thread, when the title's link names it (the forum links the post, not always the thread).
  package var threadID: String?
  package var threadTitle: String
  package var forumID: String?
  package var forumTitle: String
  /// The poster (`.username`).
  package var author: ForumUserReference?
  /// When the post was made, when `.hit_info` holds a date the forum writes; `dateText` as printed either way.
  package var date: Date?
  package var dateText: String?
  /// The snippet as the forum wrote it (HTML: `<em>` marks the matched words), and as rich text.
  package var snippetHTML: String
  @RichTextBody package var snippet: [RichText]

  package init(
    number: Int?, postID: String, threadID: String?, threadTitle: String, forumID: String?, forumTitle: String,
    author: ForumUserReference?, date: Date?, dateText: String?, snippetHTML: String, snippet: [RichText]
  ) {
    self.number = number
    self.postID = postID
    self.threadID = threadID
    self.threadTitle = threadTitle
    self.forumID = forumID
    self.forumTitle = forumTitle
    self.author = author
    self.date = date
    self.dateText = dateText
    self.snippetHTML = snippetHTML
    self.snippet = snippet
  }
}

/// One page of the forum's search results.
package struct SearchResultsPage: Sendable, Hashable, Codable {
  /// The search's id on the forum (`qid`), which the next pages are asked for with; nil when the page does not say
  /// (a single page of results names no other page).
  package var queryID: String?
  /// `#search_info` as the forum wrote it: what was searched for, and "There were no results…" when nothing matched.
  package var info: String
  package var results: [SearchResult]
  /// Which page this is of how many; nil when the page shows no page list (one page, or none).
  package var navigation: PageNavigation?
  /// How many hits in all, when `#search_info` says ("57 results").
  package var totalResults: Int?

  package init(
    queryID: String?, info: String, results: [SearchResult], navigation: PageNavigation?, totalResults: Int?
  ) {
    self.queryID = queryID
    self.info = info
    self.results = results
    self.navigation = navigation
    self.totalResults = totalResults
  }

  /// The forum found nothing: no hit listed (the page says "There were no results" in `info`).
  package var isEmpty: Bool { results.isEmpty }
}
