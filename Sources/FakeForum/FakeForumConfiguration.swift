import Foundation

/// Which page-navigation markup pages carry (both exist on the real forum).
package enum PageNavStyle: String, Sendable, Hashable, Codable, CaseIterable {
  /// `div.pages` with a `<select>` of pages, the current one `selected` (pages before late 2025).
  case old
  /// `div.pages[data-current-page][data-total-pages][data-base-url][data-per-page]` (since late 2025), still with
  /// the `<select>` of every page as well.
  case new
  /// The late-2025 data attributes and the first/previous/next/last links, without the `<select>`: the new markup
  /// as docs/forum-protocol.md#breadcrumbs-and-page-navigation describes it. With thousands of bookmarks, the
  /// `<select>` of every page, top and bottom, is more than half of each bookmarks page.
  case data

  /// Pages in the late-2025 layout (user name in the header, page list inside the breadcrumbs).
  var isModern: Bool { self != .old }
}

package struct FakeForumConfiguration: Sendable {
  /// 0 picks a free port.
  package var port: Int
  package var host: String
  package var seed: FakeForumSeed
  package var pageNav: PageNavStyle
  /// The forum's time zone for every date it prints.
  package var timeZone: TimeZone
  package var clock: ForumClockStyle
  /// Oldest requests are dropped past this many, so long benchmarks do not grow without bound.
  package var requestLogLimit: Int
  /// FYAD-like mode: posts pages carry no `data-idx`.
  package var omitPostIndexes: Bool
  /// The forum's "now", for new posts that do not say when they were made (and the flood check's clock).
  package var now: @Sendable () -> Date
  /// The flood check the forum starts with (and returns to on reset): the minimum seconds between two replies of
  /// one account; 0 is off. Changed at run time as the `.floodCheck` fault.
  package var floodSeconds: Int

  package init(
    port: Int = 0, host: String = "127.0.0.1", seed: FakeForumSeed = .demo, pageNav: PageNavStyle = .new,
    timeZone: String = "America/Chicago", clock: ForumClockStyle = .twentyFourHour, requestLogLimit: Int = 100_000,
    omitPostIndexes: Bool = false, floodSeconds: Int = 0, now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.port = port
    self.host = host
    self.seed = seed
    self.pageNav = pageNav
    self.timeZone = TimeZone(identifier: timeZone) ?? TimeZone(identifier: "America/Chicago")!
    self.clock = clock
    self.requestLogLimit = requestLogLimit
    self.omitPostIndexes = omitPostIndexes
    self.floodSeconds = max(0, floodSeconds)
    self.now = now
  }
}
