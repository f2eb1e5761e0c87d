import ForumModel
import Foundation

/// Reads who a profile page (`member.php?action=getinfo`) is about: the name of its `dt.author` and the user id, by
/// the author sidebar's rules (profile links, the `userid-N` class, `input[name=userid]`, which the profile's buddy
/// and ignore forms hold). This is how a user name becomes the id other pages take (a rap sheet,
/// `banlist.php?userid=U`). Throws `ForumPageError` for an error page (an unknown user is the forum's standard error)
/// and `ScrapeError` for a page without a name or an id.
package struct ProfileUserScraper: Sendable {
  package init() {}

  package func scrape(data: Data, url: URL? = nil, charset: String? = nil) throws -> ForumUserReference {
    try scrape(HTMLDocument(data: data, url: url, contentTypeCharset: charset))
  }

  package func scrape(_ document: HTMLDocument) throws -> ForumUserReference {
    try ErrorPageScraper().check(document)
    guard let body = document.body else { throw ScrapeError(page: "profile", reason: "the page has no body") }
    // The profile's own table holds the sidebar; the page's navigation links name no user.
    let root = body.firstDescendant("table", class: "standard") ?? body
    let parts = AuthorSidebarScraper.Parts(in: root)
    guard let name = parts.author?.normalizedText, !name.isEmpty else {
      throw ScrapeError(page: "profile", reason: "no dt.author naming the user")
    }
    guard let id = AuthorSidebarScraper(dates: ForumDates()).userID(parts),
      (1...18).contains(id.utf8.count), id.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 })
    else {
      throw ScrapeError(page: "profile", reason: "no numeric user id (profile links, userid- class or userid input)")
    }
    return ForumUserReference(name: name, id: id)
  }
}
