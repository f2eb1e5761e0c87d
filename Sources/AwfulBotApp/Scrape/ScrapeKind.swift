/// Which scraper `awfulbot scrape` runs. `auto` recognises the page by its markup (`PageKind.detect`).
package enum ScrapeKind: String, Sendable, Hashable, CaseIterable {
  case auto
  case threads
  case posts
  case announcements
  case post
  case index
  case error
  case replyForm = "reply-form"
  case privateMessages = "private-messages"
  case privateMessage = "private-message"
  /// `banlist.php`: the Leper's Colony or a rap sheet.
  case banlist
}
