import Foundation

/// A user named on a page by a profile link: the link text and the `userid` of its href.
package struct ForumUserReference: Sendable, Hashable, Codable {
  package var name: String
  package var id: String?

  package init(name: String, id: String?) {
    self.name = name
    self.id = id
  }
}
