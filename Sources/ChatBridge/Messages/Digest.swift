/// What arrived while a room was quiet or in digest mode: one line per thread, and one for the Leper's Colony.
package struct Digest: Sendable, Hashable, Codable {
  package struct Entry: Sendable, Hashable, Codable {
    /// What an entry counts.
    package enum Subject: String, Sendable, Hashable, Codable {
      /// Posts of one thread, by their authors.
      case posts
      /// Leper's Colony entries, for the users punished.
      case lepersColony
    }

    /// The thread's title, or "The Leper's Colony".
    package var threadTitle: String
    /// How many posts (or Colony entries) the line stands for.
    package var postCount: Int
    /// The posts' authors, or the users punished.
    package var authors: [String]
    /// Where a reader starts: the first post the digest covers (or the thread, or the Colony's first page).
    package var link: String
    /// Nil in digests stored before the Colony could be held: those count posts.
    package var subject: Subject?

    package init(threadTitle: String, postCount: Int, authors: [String], link: String, subject: Subject = .posts) {
      self.threadTitle = threadTitle
      self.postCount = postCount
      self.authors = authors
      self.link = link
      self.subject = subject
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
