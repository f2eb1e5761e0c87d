import ForumModel
import Foundation

/// Reads the forum's answer to sending a private message (`POST private.php`, `action=dosend`): the
/// `body.standardredirect` "Thank you for sending your private message" page, which leads back to `private.php`.
/// An error page throws its `ForumPageError` (an unknown recipient or a missing subject is a standard error page);
/// any other page throws `ScrapeError`, so a message is never reported sent on a page that does not say so.
package struct PrivateMessageSendResultScraper: Sendable {
  package init() {}

  package func scrape(data: Data, url: URL? = nil, charset: String? = nil) throws {
    try scrape(HTMLDocument(data: data, url: url, contentTypeCharset: charset))
  }

  package func scrape(_ document: HTMLDocument) throws {
    try ErrorPageScraper().check(document)
    guard let body = document.body, body.hasClassToken("standardredirect") else {
      throw ScrapeError(
        page: "private message sent", reason: "no body.standardredirect: the forum did not confirm the message was sent"
      )
    }
    let leadsToMessages =
      body.firstDescendant { $0.isElement("a") && $0.attribute("href", contains: "private.php") } != nil
    guard leadsToMessages else {
      throw ScrapeError(page: "private message sent", reason: "the redirect page does not lead to private.php")
    }
  }
}
