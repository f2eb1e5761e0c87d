import ChatBridge
import ForumModel
import Foundation

/// A thread's new posts (index above the cursor) together with what the thread list said about it.
struct ThreadUpdate: Sendable {
  var threadID: String
  var title: String
  var forumID: String?
  var star: StarColor?
  var replyCount: Int
  var lastPostAt: Date?
  var lastPostAuthor: String?
  var isClosed: Bool
  /// Oldest first.
  var posts: [Post]
  /// Posts already relayed that the pages read for `posts` showed again: where edits and deletions are noticed.
  var seenAgain: [Post] = []
}
