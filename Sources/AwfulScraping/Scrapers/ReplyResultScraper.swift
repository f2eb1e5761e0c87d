import ForumModel
import Foundation

/// Reads the page the forum answers a posted reply with (docs/forum-protocol.md#replying, step 4): the first
/// `a[href*='goto=post']` gives the new post's id (or the final URL, when a redirect to the post was followed); failing
/// that, a `goto=lastpost` link means "the thread's last post". An error page (closed thread, logged out, …) throws
/// `ForumPageError`; a page with neither link throws `ScrapeError`, because the reply's fate is then unknown.
package struct ReplyResultScraper: Sendable {
  package init() {}

  package func scrape(data: Data, url: URL? = nil, charset: String? = nil) throws -> ReplyResult {
    try scrape(HTMLDocument(data: data, url: url, contentTypeCharset: charset))
  }

  package func scrape(_ document: HTMLDocument) throws -> ReplyResult {
    try ErrorPageScraper().check(document)
    guard let body = document.body else { throw ScrapeError(page: "reply result", reason: "the page has no body") }
    // When the answer was a redirect that got followed, the final URL names the post; a thread page's own links
    // would only name quoted posts.
    if let url = document.url {
      if let fragment = url.fragment, let id = LinkParsing.digits(after: "post", in: fragment), fragment == "post\(id)"
      {
        return .post(id: id)
      }
      let string = url.absoluteString
      if string.contains("goto=post"), let id = LinkParsing.queryValue("postid", in: string) { return .post(id: id) }
    }
    let links = body.descendants { $0.isElement("a") && $0.hasAttribute("href") }.compactMap { $0.attribute("href") }
    if let href = links.first(where: { $0.contains("goto=post") }),
      let postID = LinkParsing.queryValue("postid", in: href)
    {
      return .post(id: postID)
    }
    if let href = links.first(where: { $0.contains("goto=lastpost") }) {
      return .lastPostInThread(threadID: LinkParsing.queryValue("threadid", in: href))
    }
    // A redirect may carry the post in a meta refresh instead of a link.
    if let refresh = document.root?.firstDescendant(where: {
      $0.isElement("meta") && $0.attribute("http-equiv")?.lowercased() == "refresh"
    })?.attribute("content") {
      if refresh.contains("goto=post"), let postID = LinkParsing.queryValue("postid", in: refresh) {
        return .post(id: postID)
      }
      if refresh.contains("goto=lastpost") {
        return .lastPostInThread(threadID: LinkParsing.queryValue("threadid", in: refresh))
      }
    }
    throw ScrapeError(page: "reply result", reason: "no goto=post or goto=lastpost link; the reply may not have posted")
  }
}
