import Foundation

/// A node of `index.php?json=1`: `hasThreads == false` marks a group.
package struct ForumNode: Sendable, Hashable, Codable {
  package var id: String
  package var title: String
  package var shortTitle: String?
  package var hasThreads: Bool
  package var icon: String?
  package var moderators: [String]
  package var subforums: [ForumNode]

  package init(
    id: String, title: String, shortTitle: String? = nil, hasThreads: Bool, icon: String? = nil,
    moderators: [String] = [], subforums: [ForumNode] = []
  ) {
    self.id = id
    self.title = title
    self.shortTitle = shortTitle
    self.hasThreads = hasThreads
    self.icon = icon
    self.moderators = moderators
    self.subforums = subforums
  }
}
