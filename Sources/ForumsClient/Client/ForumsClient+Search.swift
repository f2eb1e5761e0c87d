import ForumModel
import Foundation

extension ForumsClient {
  /// Searches the forum as its search form does (docs/forum-protocol.md#search): one urlencoded POST to `query.php`
  /// with `q`, `action=query` and a `forums[]` per forum id (none: every forum). The forum answers with a redirect
  /// to the first page of results, `query.php?action=results&qid=Q`, which is followed: two requests, the forum's
  /// two. `query` may start with `threadid:N ` to search one thread.
  ///
  /// A non-Platinum account gets the forum's "only accessible to Platinum members" page, and a search too soon after
  /// the last its limit's page: both are `SearchRefusal` with the forum's sentence. The POST is never repeated
  /// (a repeat would count against that limit); a session that expired is logged in again and the search sent once
  /// more, as for every page.
  package func search(query: String, forumIDs: [String] = []) async throws -> SearchResultsPage {
    try await withSession {
      var form = [FormField("q", query), FormField("action", "query")]
      form += forumIDs.map { FormField("forums[]", $0) }
      var request = ForumRequest.post("query.php", form: form, isIdempotent: false)
      request.bodyEncoding = .urlEncoded
      let page = try await readSearchPage(request)
      logger.info(
        "searched the forum",
        metadata: [
          "forums": "\(forumIDs.count)", "results": "\(page.results.count)", "qid": "\(page.queryID ?? "-")",
        ])
      return page
    }
  }

  /// Page `page` of an earlier search's results, `query.php?action=results&qid=Q&page=N`: one request.
  package func searchResults(queryID: String, page: Int) async throws -> SearchResultsPage {
    try await withSession {
      let request = ForumRequest.get(
        "query.php", [("action", "results"), ("qid", queryID), ("page", String(max(page, 1)))])
      var results = try await readSearchPage(request)
      // The page names its search by the URL asked for; a page that does not is still this search's.
      if results.queryID == nil { results.queryID = queryID }
      return results
    }
  }

  /// The results page a request answers with, the forum's refusals to search typed as `SearchRefusal`.
  private func readSearchPage(_ request: ForumRequest) async throws -> SearchResultsPage {
    do {
      let (document, _) = try await fetchDocument(request, page: "search results")
      return try scrape("search results") {
        try PageScrapers.searchResults(document, timeZone: configuration.timeZone)
      }
    } catch let error as ForumsClientError {
      if case .forumRefused(_, let message) = error, let refusal = SearchRefusal(errorMessage: message) {
        throw refusal
      }
      throw error
    }
  }
}
