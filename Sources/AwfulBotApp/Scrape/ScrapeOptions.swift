import AwfulScraping
import ForumModel
import Foundation

/// What `awfulbot scrape` was asked to do.
package struct ScrapeOptions: Sendable, Hashable {
  /// The saved page (HTML, or JSON for `index`).
  package var path: String
  package var kind: ScrapeKind
  /// The URL the page was fetched from. Some values come from it (`perpage`, `#pti` fragments, showpost detection).
  package var url: URL?
  /// The zone the forum printed its times in; output times are UTC.
  package var timeZone: TimeZone
  package var bodyFormat: ScrapeBodyFormat

  package init(
    path: String, kind: ScrapeKind = .auto, url: URL? = nil, timeZone: TimeZone = ForumDates.forumTimeZone,
    bodyFormat: ScrapeBodyFormat = .text
  ) {
    self.path = path
    self.kind = kind
    self.url = url
    self.timeZone = timeZone
    self.bodyFormat = bodyFormat
  }
}
