import ForumModel
import Foundation

/// Scrapes a thread page (`showthread.php`, docs/forum-protocol.md#thread-pages): thread id, title, forum,
/// breadcrumbs, closed and bookmark state, single-user filter, page navigation, and every post with its index in the
/// thread, its author, date, seen state and body (HTML and rich text), plus the first unread post on the page
/// (docs/forum-protocol.md#first-unread-post).
///
/// Throws `ForumPageError` for an error page and `ScrapeError` for a page that has no posts or no thread id, so a
/// broken page is never read as "no new posts". The probation banner is not an error: it is read into `probation`.
package struct PostsPageScraper: Sendable {
  package var dates: ForumDates

  package init(timeZone: TimeZone = ForumDates.forumTimeZone) {
    dates = ForumDates(timeZone: timeZone)
  }

  /// `url` is the final (post-redirect) URL: its `perpage` and `#pti<N>` fragment are read.
  package func scrape(data: Data, url: URL? = nil, charset: String? = nil) throws -> PostsPage {
    try scrape(HTMLDocument(data: data, url: url, contentTypeCharset: charset))
  }

  package func scrape(_ document: HTMLDocument) throws -> PostsPage {
    try ErrorPageScraper().check(document)
    guard let body = document.body else { throw ScrapeError(page: "thread", reason: "the page has no body") }

    let chrome = ThreadPageChrome(body)
    let postScraper = PostScraper(dates: dates, baseURL: document.url)
    let scraped = try chrome.postTables.map(postScraper.scrape)

    let breadcrumbLink = PageChrome.threadLink(in: chrome.breadcrumbs)
    let urlString = document.url?.absoluteString
    let threadID =
      body.attribute("data-thread").flatMap { $0.trimmed.isEmpty ? nil : $0.trimmed }
      ?? breadcrumbLink?.attribute("href").flatMap { LinkParsing.queryValue("threadid", in: $0) }
      ?? chrome.threadContainerClass.flatMap { LinkParsing.digits(after: "thread:", in: $0) }
      ?? urlString.flatMap { LinkParsing.queryValue("threadid", in: $0) }
    guard !scraped.isEmpty else {
      throw ScrapeError(
        page: "thread",
        reason: threadID == nil
          ? "no body[data-thread], no breadcrumb thread link and no table.post"
          : "the thread page has no posts (table.post)")
    }
    guard let threadID else {
      throw ScrapeError(page: "thread", reason: "no thread id (body[data-thread] or a breadcrumb thread link)")
    }

    let navigation = PageChrome.pageNavigation(chrome.pages)
    // At least 1 (a divisor) and at most Clamp.forumNumber (a factor of the indexes below).
    let perPage = Clamp.forumNumber(
      urlString.flatMap { LinkParsing.queryValue("perpage", in: $0) }.flatMap { Int($0) }
        ?? chrome.pages?.attribute("data-per-page").flatMap { Int($0) }
        ?? forumPageSize, atLeast: 1)
    let posts = Self.assignIndices(scraped, page: navigation.current, perPage: perPage)
    let crumbs = PageChrome.breadcrumbs(in: chrome.breadcrumbs)

    return PostsPage(
      threadID: threadID,
      threadTitle: breadcrumbLink?.normalizedText ?? chrome.documentTitle(document) ?? "",
      forumID: body.attribute("data-forum") ?? crumbs.last?.forumID,
      breadcrumbs: crumbs,
      isClosed: chrome.replyButtonIsClosed || body.hasClassToken("closed_thread"),
      isBookmarked: chrome.isBookmarked,
      isSingleUserFilterEnabled: scraped.contains(where: \.showsRemoveFilter),
      page: navigation,
      postsPerPage: perPage,
      posts: posts,
      firstUnreadIndexOnPage: Self.firstUnread(posts, url: document.url),
      probation: ProbationScraper(dates: dates).scrape(banner: chrome.probationBanner))
  }

  /// Index in thread: `data-idx`; else the "mark read to here" index; else one more than the previous known post
  /// (or one less than the next); else `(page - 1) * perPage + 1 + position`.
  static func assignIndices(_ scraped: [PostScraper.Scraped], page: Int, perPage: Int) -> [Post] {
    let known: [Int?] = scraped.map { $0.explicitIndex ?? $0.lastSeenIndex }
    var posts = scraped.map(\.post)
    for position in posts.indices {
      if let index = known[position] {
        posts[position].index = index
        continue
      }
      if let before = known[..<position].lastIndex(where: { $0 != nil }), let value = known[before] {
        posts[position].index = value + (position - before)
      } else if let after = known[(position + 1)...].firstIndex(where: { $0 != nil }), let value = known[after],
        value - (after - position) >= 1
      {
        posts[position].index = value - (after - position)
      } else {
        posts[position].index = (max(page, 1) - 1) * perPage + 1 + position
      }
    }
    return posts
  }

  /// The first post without a seen row when that is not the first post; otherwise the `#pti<N>` fragment of the
  /// final URL (1-based). See docs/forum-protocol.md#first-unread-post.
  static func firstUnread(_ posts: [Post], url: URL?) -> Int? {
    if let unseen = posts.firstIndex(where: { !$0.hasBeenSeen }), unseen > 0 { return unseen + 1 }
    if let fragment = url?.fragment, fragment.hasPrefix("pti"), let index = Int(fragment.dropFirst(3)), index >= 1 {
      return Clamp.forumNumber(index)
    }
    return nil
  }
}

/// The page-level parts of a thread page, found in one walk that does not enter the posts.
struct ThreadPageChrome {
  var postTables: [HTMLNode] = []
  var pages: HTMLNode?
  var breadcrumbs: HTMLNode?
  var isBookmarked: Bool?
  var replyButtonIsClosed = false
  var threadContainerClass: String?
  var probationBanner: HTMLNode?

  init(_ body: HTMLNode) {
    // Walked on raw nodes (`body` keeps the page alive); only the nodes kept become `HTMLNode`s.
    body.raw.walkDescendants { node in
      guard node.isElement else { return .skipChildren }
      if node.isElement("table") {
        if node.hasClassToken("post") {
          postTables.append(body.node(node))
          return .skipChildren
        }
      } else if node.isElement("div") {
        if pages == nil, node.hasClassToken("pages") {
          pages = body.node(node)
          return .skipChildren
        }
        if breadcrumbs == nil, node.hasClassToken("breadcrumbs") {
          // Not skipped: the 2025 markup nests `div.pages` inside the breadcrumbs.
          breadcrumbs = body.node(node)
        }
        if threadContainerClass == nil, node.attribute("id", equals: "thread") {
          threadContainerClass = node.attribute("class")
        }
        if probationBanner == nil, node.attribute("id", equals: "probation_warn") {
          probationBanner = body.node(node)
          return .skipChildren
        }
      } else if node.isElement("img") {
        if isBookmarked == nil, node.hasClassToken("thread_bookmark") {
          if node.hasClassToken("unbookmark") {
            isBookmarked = true
          } else if node.hasClassToken("bookmark") {
            isBookmarked = false
          }
        }
      } else if node.isElement("ul"), node.hasClassToken("postbuttons") {
        let closed = node.firstDescendant { link in
          link.isElement("a") && link.attribute("href", contains: "newreply")
            && link.firstDescendant(where: { $0.isElement("img") && $0.attribute("src", contains: "closed") }) != nil
        }
        if closed != nil { replyButtonIsClosed = true }
        return .descend
      } else if node.isElement("script") || node.isElement("head") || node.isElement("style") {
        return .skipChildren
      }
      return .descend
    }
  }

  /// The thread title from `<title>` ("Title - The Something Awful Forums" or "The Something Awful Forums - Title").
  func documentTitle(_ document: HTMLDocument) -> String? {
    guard let title = document.root?.firstDescendant("title")?.normalizedText, !title.isEmpty else { return nil }
    let site = "The Something Awful Forums"
    if title.hasPrefix(site + " - ") { return String(title.dropFirst(site.count + 3)) }
    if title.hasSuffix(" - " + site) { return String(title.dropLast(site.count + 3)) }
    return title
  }
}
