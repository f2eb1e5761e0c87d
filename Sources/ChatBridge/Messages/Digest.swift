/// What arrived while a room was quiet or in digest mode, one line per thread.
package struct Digest: Sendable, Hashable, Codable {
  package struct Entry: Sendable, Hashable, Codable {
    package var threadTitle: String
    package var postCount: Int
    package var authors: [String]
    /// Where a reader starts: the first post the digest covers (or the thread).
    package var link: String

    package init(threadTitle: String, postCount: Int, authors: [String], link: String) {
      self.threadTitle = threadTitle
      self.postCount = postCount
      self.authors = authors
      self.link = link
    }
  }

  /// "Digest: 12 new posts in 3 threads", "While the room was quiet: …".
  package var title: String
  package var entries: [Entry]

  package init(title: String, entries: [Entry]) {
    self.title = title
    self.entries = entries
  }
}
