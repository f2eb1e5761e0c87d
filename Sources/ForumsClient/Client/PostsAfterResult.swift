import AwfulScraping

extension ForumsClient {
  /// The posts of a thread after a given index, with the thread's metadata from the last page fetched.
  package struct PostsAfterResult: Sendable, Hashable {
    package var threadID: String
    package var threadTitle: String
    package var forumID: String?
    package var isClosed: Bool
    /// Posts with an index greater than the one asked for, oldest first, each once.
    package var posts: [Post]
    /// Pages requested to get them.
    package var pagesFetched: Int

    package init(
      threadID: String, threadTitle: String, forumID: String?, isClosed: Bool, posts: [Post], pagesFetched: Int
    ) {
      self.threadID = threadID
      self.threadTitle = threadTitle
      self.forumID = forumID
      self.isClosed = isClosed
      self.posts = posts
      self.pagesFetched = pagesFetched
    }
  }
}
