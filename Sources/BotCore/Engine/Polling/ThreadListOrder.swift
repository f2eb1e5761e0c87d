import ForumModel
import Foundation

/// Checks, row after row and across pages, that a thread list is newest last post first. A read may only stop
/// early on a list in that order; a sort preference on the account, a sticky listed first or a change on the
/// forum's side breaks it, and the read must then go on as a full one.
struct ThreadListOrder: Sendable {
  /// Forum lists put stickies first, whatever their last post; the bookmarks list sorts them with the rest.
  let skipsStickies: Bool
  private(set) var isIntact = true
  /// The page and row (1-based) where the order broke, for the log.
  private(set) var brokeAt: (page: Int, row: Int)?
  private var previous: Date?

  init(skipsStickies: Bool) {
    self.skipsStickies = skipsStickies
  }

  /// Takes the next page's rows; false once the order has broken (on this page or before). Equal times are in
  /// order: the forum prints minutes. A row without a last-post time cannot be placed, so it breaks the order.
  @discardableResult
  mutating func check(_ rows: [ThreadListThread], page: Int) -> Bool {
    guard isIntact else { return false }
    for (offset, row) in rows.enumerated() where !(skipsStickies && row.isSticky) {
      guard let date = row.lastPostDate, previous.map({ date <= $0 }) ?? true else {
        isIntact = false
        brokeAt = (page, offset + 1)
        return false
      }
      previous = date
    }
    return true
  }
}
