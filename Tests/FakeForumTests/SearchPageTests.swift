import AwfulBotTestKit
import AwfulScraping
import ForumModel
import Foundation
import Testing

@testable import FakeForum

/// `query.php` as the emulator serves it, read back by the project's scraper: the form, the search's redirect, the
/// results (escaped), Platinum per account through the admin API, and the search limit's page.
@Suite("FakeForum search")
struct SearchPageTests {
  func results(_ client: ForumTestClient, _ pathAndQuery: String) async throws -> SearchResultsPage {
    let reply = try await client.get(pathAndQuery)
    #expect(reply.status == 200)
    return try SearchResultsScraper().scrape(data: Data(reply.body), url: client.baseURL, charset: "windows-1252")
  }

  /// `/query.php?…` of an absolute redirect target.
  static func path(_ location: String) -> String {
    guard let range = location.range(of: "/query.php") else { return location }
    return String(location[range.lowerBound...])
  }

  @Test func formSearchAndEscapedResults() async throws {
    let server = try await FakeForumServer(configuration: FakeForumConfiguration(seed: .demo))
    try await withStarted(server) { client throws in
      _ = try await client.logIn()
      let postID = try await server.state.addPost(
        thread: 3_600_003, author: 1002,
        body: .html("okapi <script>alert(1)</script> &lt;b&gt; @room \"quoted\" <a href=\"javascript:x()\">link</a>"))
      let form = try await client.get("/query.php")
      #expect(form.text.contains("<form action=\"query.php\" method=\"post\" accept-charset=\"UTF-8\">"))
      #expect(form.text.contains("name=\"forums[]\" value=\"273\""))
      #expect(throws: ScrapeError.self) { try SearchResultsScraper().scrape(data: Data(form.body)) }

      let posted = try await client.postURLEncoded(
        "/query.php", fields: [("q", "OKAPI"), ("action", "query"), ("forums[]", "273")])
      #expect(posted.status == 302)
      let location = try #require(posted.header("Location"))
      #expect(location.contains("/query.php?action=results&qid="))
      let path = Self.path(location)
      let page = try await results(client, path)
      #expect(page.results.map(\.postID) == ["\(postID)"])
      let raw = try await client.get(path).text
      #expect(!raw.contains("<script>alert") && !raw.contains("javascript:x"))
      // The post's text as a reader sees it (its tags are markup, gone; its `&lt;b&gt;` is text), escaped again.
      #expect(raw.contains("<em>okapi</em> alert(1) &lt;b&gt; @room &quot;quoted&quot; link"))
      #expect(plainText(try #require(page.results.first).snippet) == "okapi alert(1) <b> @room \"quoted\" link")

      // Another forum only: nothing.
      let elsewhere = try await client.postURLEncoded(
        "/query.php", fields: [("q", "okapi"), ("action", "query"), ("forums[]", "46")])
      let none = try await results(client, Self.path(try #require(elsewhere.header("Location"))))
      #expect(none.results.isEmpty && none.info.hasSuffix("There were no results for your search."))
    }
  }

  @Test func platinumPerAccountAndTheSearchLimit() async throws {
    let server = try await FakeForumServer(configuration: FakeForumConfiguration(seed: .demo))
    try await withStarted(server) { client throws in
      _ = try await client.logIn()
      let off = try await client.admin.send("POST", "/_fake/platinum", json: #"{"user":"awfulbot","platinum":false}"#)
      #expect(off.status == 200)
      for reply in [
        try await client.get("/query.php"),
        try await client.postURLEncoded("/query.php", fields: [("q", "x"), ("action", "query")]),
        try await client.get("/query.php?action=results&qid=1"),
      ] {
        let error = try ErrorPageScraper().scrape(data: Data(reply.body))
        guard case .standard(_, let message)? = error else {
          Issue.record("not the standard error page: \(String(describing: error))")
          continue
        }
        #expect(message.contains("only accessible to Platinum members"))
      }
      _ = try await client.admin.send("POST", "/_fake/platinum", json: #"{"user":1001,"platinum":true}"#)
      let limit = try await client.admin.send("POST", "/_fake/search", json: #"{"floodSeconds":30}"#)
      #expect(limit.status == 200)
      let first = try await client.postURLEncoded("/query.php", fields: [("q", "x"), ("action", "query")])
      #expect(first.status == 302)
      let second = try await client.postURLEncoded("/query.php", fields: [("q", "y"), ("action", "query")])
      #expect(second.text.contains("This forum requires that you wait 30 seconds between searches."))
      let made = try await client.admin.send(
        "POST", "/_fake/users", json: #"{"name":"Plat","password":"p","platinum":true}"#)
      let id = try #require((try made.json() as? [String: Int])?["userID"])
      #expect(await server.state.user(id)?.isPlatinum == true)
    }
  }
}
