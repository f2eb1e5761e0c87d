import Foundation

package struct ForumIndex: Sendable, Hashable, Codable {
  /// Top-level nodes (groups), each with its forums depth-first below.
  package var groups: [ForumNode]
  package var user: ForumUser?

  package init(groups: [ForumNode], user: ForumUser?) {
    self.groups = groups
    self.user = user
  }
}
