/// The posts of a thread after a given index, with the thread's page metadata from the last page fetched: what the
/// forum client returns and the engine consumes, so it lives with the other page values.
package struct PostsAfter: Sendable, Hashable {
  package var threadID: String
  package var threadTitle: String
  package var forumID: String?
  package var isClosed: Bool
  /// Posts with `index > after`, oldest first, each once.
  package var posts: [Post]
  /// Pages requested to get them.
  package var pagesFetched: Int
  /// The account's probation, when the last page fetched carries the banner.
  package var probation: Probation?

  package init(
    threadID: String, threadTitle: String, forumID: String?, isClosed: Bool, posts: [Post], pagesFetched: Int,
    probation: Probation? = nil
  ) {
    self.threadID = threadID
    self.threadTitle = threadTitle
    self.forumID = forumID
    self.isClosed = isClosed
    self.posts = posts
    self.pagesFetched = pagesFetched
    self.probation = probation
  }
}
