import Foundation

/// One thread's line in a digest: what arrived in it since the last digest.
package struct DigestEntry: Sendable, Hashable, Codable {
  package var threadID: String
  package var threadTitle: String
  /// New posts in the thread covered by this digest.
  package var postCount: Int
  /// Authors of those posts, in posting order (repeats allowed; the renderer de-duplicates).
  package var authors: [String]
  /// The first new post, where a reader starts; the link falls back to the thread when unknown.
  package var firstPostID: String?
  package var latestPostID: String?

  package init(
    threadID: String, threadTitle: String, postCount: Int, authors: [String], firstPostID: String? = nil,
    latestPostID: String? = nil
  ) {
    self.threadID = threadID
    self.threadTitle = threadTitle
    self.postCount = postCount
    self.authors = authors
    self.firstPostID = firstPostID
    self.latestPostID = latestPostID
  }
}
