import Foundation

/// One entry of `div.breadcrumbs`: the first is the group, then forum, then subforum.
package struct Breadcrumb: Sendable, Hashable, Codable {
  package var forumID: String
  package var name: String
  package var depth: Int

  package init(forumID: String, name: String, depth: Int) {
    self.forumID = forumID
    self.name = name
    self.depth = depth
  }
}
