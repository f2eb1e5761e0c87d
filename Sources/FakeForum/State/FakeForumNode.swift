import Foundation

/// A group (no threads) or a forum/subforum, as in `index.php?json=1`.
package struct FakeForumNode: Sendable, Hashable, Codable {
  package var id: Int
  package var title: String
  package var shortTitle: String
  /// Groups have no threads; forums and subforums do.
  package var hasThreads: Bool
  package var icon: String
  /// nil for a group (top level).
  package var parentID: Int?
  package var moderatorIDs: [Int]
  /// Children in display order.
  package var childIDs: [Int]

  package init(
    id: Int, title: String, shortTitle: String? = nil, hasThreads: Bool, icon: String = "", parentID: Int? = nil,
    moderatorIDs: [Int] = [], childIDs: [Int] = []
  ) {
    self.id = id
    self.title = title
    self.shortTitle = shortTitle ?? title
    self.hasThreads = hasThreads
    self.icon = icon
    self.parentID = parentID
    self.moderatorIDs = moderatorIDs
    self.childIDs = childIDs
  }
}
