import ForumModel
import Foundation

/// Scrapes a single post shown on its own (`showthread.php?action=showpost&postid=P`), which is how the content of a
/// post from an ignored user is read (docs/forum-protocol.md#ignored-posts). The thread id comes from
/// `div#thread.thread:<id>` and the title from the page `<title>` after its first " - ". The page shows no index:
/// `post.index` is the "mark read" index when present, else 0 with `indexIsExplicit == false`.
package struct ShowPostScraper: Sendable {
  package var dates: ForumDates

  package init(timeZone: TimeZone = ForumDates.forumTimeZone) {
    dates = ForumDates(timeZone: timeZone)
  }

  package func scrape(data: Data, url: URL? = nil, charset: String? = nil) throws -> ShowPostPage {
    try scrape(HTMLDocument(data: data, url: url, contentTypeCharset: charset))
  }

  package func scrape(_ document: HTMLDocument) throws -> ShowPostPage {
    try ErrorPageScraper().check(document)
    guard let body = document.body else { throw ScrapeError(page: "show post", reason: "the page has no body") }
    let chrome = ThreadPageChrome(body)
    guard let table = chrome.postTables.first else {
      throw ScrapeError(page: "show post", reason: "no table.post on the page")
    }
    let scraped = try PostScraper(dates: dates, baseURL: document.url).scrape(table)
    var post = scraped.post
    post.index = scraped.explicitIndex ?? scraped.lastSeenIndex ?? 0
    post.indexIsExplicit = scraped.explicitIndex != nil

    let threadID =
      chrome.threadContainerClass.flatMap { LinkParsing.digits(after: "thread:", in: $0) }
      ?? body.attribute("data-thread")
      ?? post.author.id.flatMap { _ in
        // The "?" (posts by this user) link carries the thread id too.
        table.firstDescendant(where: { $0.isElement("a") && $0.hasClassToken("user_jump") })?.attribute("href")
          .flatMap { LinkParsing.queryValue("threadid", in: $0) }
      }
    var threadTitle: String?
    if let title = document.root?.firstDescendant("title")?.normalizedText, let dash = title.range(of: " - ") {
      threadTitle = String(title[dash.upperBound...])
    }
    return ShowPostPage(threadID: threadID, threadTitle: threadTitle, post: post)
  }
}
