import Foundation

/// The logged-in user from `index.php?json=1`.
package struct ForumUser: Sendable, Hashable, Codable {
  package var id: String
  package var name: String
  package var biography: String?

  package init(id: String, name: String, biography: String? = nil) {
    self.id = id
    self.name = name
    self.biography = biography
  }
}
