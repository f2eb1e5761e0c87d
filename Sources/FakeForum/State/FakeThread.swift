import Foundation

/// A thread tag (post icon): the id goes in `posticon=` links and the image URL fragment.
package struct FakeThreadIcon: Sendable, Hashable, Codable {
  package var id: Int
  package var imageURL: String

  package init(id: Int, imageURL: String) {
    self.id = id
    self.imageURL = imageURL
  }

  package static let defaultIcon = FakeThreadIcon(
    id: 78, imageURL: "http://fi.somethingawful.com/forums/posticons/icons-08/help.png")
}

/// A thread. Its posts are the `generatedPostCount` synthetic ones (built on demand, for cheap benchmarks)
/// followed by `postIDs` (stored posts), in index order.
package struct FakeThread: Sendable, Hashable, Codable {
  package var id: Int
  package var forumID: Int
  package var title: String
  package var authorID: Int
  package var icon: FakeThreadIcon
  package var isSticky: Bool
  package var isClosed: Bool
  package var ratingCount: Int?
  package var ratingAverage: Double?
  package var createdAt: Date
  /// Number of synthetic posts at the start of the thread (indexes 1…generatedPostCount).
  package var generatedPostCount: Int
  /// First post id of the range reserved for the synthetic posts.
  package var generatedPostBaseID: Int
  /// Author of the synthetic replies (the opening post is the thread author's).
  package var generatedReplyAuthorID: Int
  /// Stored posts after the synthetic ones.
  package var postIDs: [Int]
  /// Kept up to date on every new post so thread lists sort without touching posts.
  package var lastPostDate: Date
  package var lastPostAuthorID: Int

  package var postCount: Int { generatedPostCount + postIDs.count }
  package var replyCount: Int { max(0, postCount - 1) }
}
