import ForumModel
import Foundation

/// Scrapes a thread list: the bookmarks page (`bookmarkthreads.php`) or a forum page (`forumdisplay.php`), which
/// share their markup (docs/forum-protocol.md#thread-lists). Announcement rows come out separately from threads.
///
/// Throws `ForumPageError` for an error page and `ScrapeError` for a page without a thread list (or, when scraped as
/// `.bookmarks`, without `form[name=bookmarks]`), so a broken page is never read as "nothing new". The probation
/// banner is not an error: it is read into `probation`.
package struct ThreadListScraper: Sendable {
  /// What the caller asked for; a mismatch is an error rather than an empty list.
  package enum Expectation: Sendable {
    case bookmarks
    case forum
    case any
  }

  package var dates: ForumDates

  package init(timeZone: TimeZone = ForumDates.forumTimeZone) {
    dates = ForumDates(timeZone: timeZone)
  }

  package func scrape(
    data: Data, url: URL? = nil, charset: String? = nil, expecting expectation: Expectation = .any
  ) throws -> ThreadListPage {
    try scrape(HTMLDocument(data: data, url: url, contentTypeCharset: charset), expecting: expectation)
  }

  package func scrape(_ document: HTMLDocument, expecting expectation: Expectation = .any) throws -> ThreadListPage {
    try ErrorPageScraper().check(document)
    guard let body = document.body else { throw ScrapeError(page: "thread list", reason: "the page has no body") }

    var bookmarksForm = false
    var threadTable = false
    var pages: RawNode?
    var breadcrumbs: RawNode?
    var canPost = false
    var tagsContainer: RawNode?
    var probationBanner: RawNode?
    var rows: [RawNode] = []
    // Raw nodes throughout: `document` keeps the page alive for this call, and a list page has thousands of nodes.
    body.raw.walkDescendants { node in
      guard node.isElement else { return .skipChildren }
      if node.isElement("tr") {
        if node.hasClassToken("thread") {
          rows.append(node)
          return .skipChildren
        }
      } else if node.isElement("form") {
        if node.attribute("name", equals: "bookmarks") { bookmarksForm = true }
      } else if node.isElement("table") {
        if node.attribute("id", equals: "forum") || node.hasClassToken("threadlist") { threadTable = true }
      } else if node.isElement("div") {
        if pages == nil, node.hasClassToken("pages") {
          pages = node
          return .skipChildren
        }
        if breadcrumbs == nil, node.hasClassToken("breadcrumbs") {
          // Not skipped: the 2025 markup nests `div.pages` inside the breadcrumbs.
          breadcrumbs = node
        }
        if tagsContainer == nil, node.hasClassToken("thread_tags") {
          tagsContainer = node
          return .skipChildren
        }
        if probationBanner == nil, node.attribute("id", equals: "probation_warn") {
          probationBanner = node
          return .skipChildren
        }
      } else if node.isElement("ul"), node.hasClassToken("postbuttons") {
        if node.firstDescendant(where: { $0.isElement("a") && $0.attribute("href", contains: "newthread") }) != nil {
          canPost = true
        }
        return .skipChildren
      }
      return .descend
    }

    switch expectation {
    case .bookmarks where !bookmarksForm:
      throw ScrapeError(page: "bookmarks", reason: "no form[name=bookmarks]; this is not the bookmarks page")
    case .forum where !threadTable && rows.isEmpty:
      throw ScrapeError(page: "forum", reason: "no thread table (table#forum) and no thread rows")
    case .any where !bookmarksForm && !threadTable && rows.isEmpty:
      throw ScrapeError(page: "thread list", reason: "no thread table, thread rows or bookmarks form")
    default:
      break
    }

    var threads: [ThreadListThread] = []
    var announcements: [ThreadListAnnouncement] = []
    for row in rows {
      switch readRow(row, base: document.url) {
      case .thread(let thread): threads.append(thread)
      case .announcement(let announcement): announcements.append(announcement)
      case nil: continue
      }
    }

    let forumID =
      body.attribute("data-forum") ?? document.url.flatMap { LinkParsing.queryValue("forumid", in: $0.absoluteString) }
    return ThreadListPage(
      forumID: forumID,
      isBookmarksPage: bookmarksForm,
      threads: threads,
      announcements: announcements,
      breadcrumbs: PageChrome.breadcrumbs(in: breadcrumbs.map(body.node)),
      canPostNewThread: canPost,
      filterIcons: filterIcons(tagsContainer, base: document.url),
      page: PageChrome.pageNavigation(pages.map(body.node)),
      probation: ProbationScraper(dates: dates).scrape(banner: probationBanner.map(body.node)))
  }

  private enum Row {
    case thread(ThreadListThread)
    case announcement(ThreadListAnnouncement)
  }

  /// The cells of a thread row the scraper reads, by class; the first cell with a class wins it.
  private struct Cells {
    var star: RawNode?
    var icon: RawNode?
    var icon2: RawNode?
    var title: RawNode?
    var author: RawNode?
    var replies: RawNode?
    var rating: RawNode?
    var lastpost: RawNode?

    init(_ row: RawNode) {
      var child = row.firstChild
      while let cell = child {
        child = cell.nextSibling
        guard cell.isElement("td") else { continue }
        // Each class token once, instead of the class list once per name.
        cell.forEachClassToken { token in
          switch token.count {
          case 4:
            if star == nil, token.elementsEqual("star".utf8) { star = cell }
            if icon == nil, token.elementsEqual("icon".utf8) { icon = cell }
          case 5:
            if icon2 == nil, token.elementsEqual("icon2".utf8) { icon2 = cell }
            if title == nil, token.elementsEqual("title".utf8) { title = cell }
          case 6:
            if author == nil, token.elementsEqual("author".utf8) { author = cell }
            if rating == nil, token.elementsEqual("rating".utf8) { rating = cell }
          case 7:
            if replies == nil, token.elementsEqual("replies".utf8) { replies = cell }
          case 8:
            if lastpost == nil, token.elementsEqual("lastpost".utf8) { lastpost = cell }
          default:
            break
          }
        }
      }
    }
  }

  /// One `tr.thread`. Rows without an id or a title are skipped, as the forum's own client does.
  private func readRow(_ row: RawNode, base: URL?) -> Row? {
    let cells = Cells(row)
    guard let titleCell = cells.title else { return nil }

    let authorLink = cells.author?.firstDescendant("a")
    let authorName = authorLink?.normalizedText ?? cells.author?.normalizedText
    let authorID = authorLink?.attribute("href").flatMap { LinkParsing.queryValue("userid", in: $0) }
    let icon =
      cells.icon.flatMap { tag(in: $0, base: base) }
      ?? cells.rating?.firstDescendant(where: {
        $0.isElement("img") && $0.attribute("src", contains: "/rate/reviews")
      })
      .flatMap { image in tag(image: image, link: nil, base: base) }

    if let announcement = titleCell.firstDescendant("a", class: "announcement") {
      let dateText = cells.lastpost?.normalizedText ?? ""
      return .announcement(
        ThreadListAnnouncement(
          title: announcement.normalizedText, authorName: authorName.flatMap { $0.isEmpty ? nil : $0 },
          authorID: authorID, date: dates.date(from: dateText), icon: icon))
    }

    guard let rowID = row.attribute("id"), let id = LinkParsing.digits(after: "thread", in: rowID),
      let titleLink = titleCell.firstDescendant("a", class: "thread_title")
    else { return nil }

    let lastSeen = titleCell.firstDescendant("div", class: "lastseen")
    let visited = lastSeen?.firstDescendant("a", class: "x") != nil
    let unread = lastSeen?.firstDescendant("a", class: "count").flatMap { count in
      PageChrome.int((count.firstDescendant("b") ?? count).textContent)
    }

    let repliesCell = cells.replies
    let replies = (repliesCell?.firstDescendant("a") ?? repliesCell).flatMap { PageChrome.int($0.textContent) } ?? 0

    var ratingCount: Int?
    var ratingAverage: Double?
    var ratingImage: String?
    if let image = cells.rating?.firstDescendant("img") {
      if let title = image.attribute("title") {
        let numbers = LinkParsing.numbers(in: title)
        if numbers.count >= 2 {
          ratingCount = Int(numbers[0])
          ratingAverage = Double(numbers[1])
        }
      }
      ratingImage = image.attribute("src").map(LinkParsing.imageName)
    }

    let lastPost = cells.lastpost
    let lastPostDate = lastPost?.firstDescendant("div", class: "date").flatMap { dates.date(from: $0.textContent) }
    let lastPostAuthor = lastPost?.firstDescendant("a", class: "author")?.normalizedText

    return .thread(
      ThreadListThread(
        id: id,
        title: titleLink.normalizedText,
        authorName: authorName,
        authorID: authorID,
        replyCount: replies,
        unreadCount: unread,
        neverVisited: !visited,
        lastPostDate: lastPostDate,
        lastPostAuthor: lastPostAuthor,
        isSticky: titleCell.hasClassToken("title_sticky"),
        isClosed: row.hasClassToken("closed"),
        star: cells.star.flatMap(star),
        ratingCount: ratingCount,
        ratingAverage: ratingAverage,
        ratingImageBasename: ratingImage,
        icon: icon,
        secondaryIcon: cells.icon2.flatMap { tag(in: $0, base: base) }))
  }

  /// `td.star.bmN`: the first `bm` class; an unknown number reads as orange, no `bm` class as no star.
  private func star(_ cell: RawNode) -> StarColor? {
    guard let bookmarkClass = cell.classes.first(where: { $0.hasPrefix("bm") }) else { return nil }
    return Int(bookmarkClass.dropFirst(2)).flatMap(StarColor.init(rawValue:)) ?? .orange
  }

  private func tag(in cell: RawNode, base: URL?) -> ThreadTag? {
    guard let image = cell.firstDescendant("img") else { return nil }
    let link = image.ancestor { $0.isElement("a") }
    return tag(image: image, link: link, base: base)
  }

  /// A thread tag from its image; the id is the link's `posticon` value, else the image URL's fragment.
  private func tag(image: RawNode, link: RawNode?, base: URL?) -> ThreadTag? {
    guard let src = image.attribute("src"), !src.isEmpty else { return nil }
    let id =
      link?.attribute("href").flatMap { LinkParsing.queryValue("posticon", in: $0) }
      ?? LinkParsing.fragment(of: src)
    return ThreadTag(
      id: id, imageURL: LinkParsing.absolute(src, base: base), imageName: LinkParsing.imageName(from: src))
  }

  /// `div.thread_tags a[href*='posticon']`: the tags a forum can be filtered by.
  private func filterIcons(_ container: RawNode?, base: URL?) -> [ThreadTag] {
    guard let container else { return [] }
    return container.descendants { $0.isElement("a") && $0.attribute("href", contains: "posticon") }
      .compactMap { link in link.firstDescendant("img").flatMap { tag(image: $0, link: link, base: base) } }
  }
}
