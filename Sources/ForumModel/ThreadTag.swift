import Foundation

/// A thread tag (post icon) such as `…/posticons/dd-war.gif#359`.
package struct ThreadTag: Sendable, Hashable, Codable {
  /// The icon id: the `posticon` query value of a filter link or the fragment of the image URL, when known.
  package var id: String?
  package var imageURL: String
  /// Last path component of the image URL without its extension (`dd-war`).
  package var imageName: String

  package init(id: String?, imageURL: String, imageName: String) {
    self.id = id
    self.imageURL = imageURL
    self.imageName = imageName
  }
}
