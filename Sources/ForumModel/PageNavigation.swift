import Foundation

/// Where a page sits in its list: read from `div.pages` data attributes, else from the old `<select>` markup.
package struct PageNavigation: Sendable, Hashable, Codable {
  package var current: Int
  package var total: Int

  package init(current: Int, total: Int) {
    self.current = current
    self.total = total
  }
}

/// The forum paginates everything the bot reads at 40 items a page (we always send `perpage=40`).
package let forumPageSize = 40
