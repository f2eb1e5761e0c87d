import ForumModel
import Foundation

/// Reads the posts a thread got since its cursor, telling new posts apart from old ones that moved up an index
/// because posts before them were deleted.
///
/// The forum numbers posts by position, so a deletion shifts every later post down one index. With k posts deleted
/// and m > k made between two polls, the thread looks m − k posts longer, and reading past the cursor's index would
/// miss the first k new ones. Post ids only grow, so the cursor's post id (the last one relayed) settles it: when the
/// post at the cursor's index is still that post, nothing before it went and the posts past the index are the new
/// ones; otherwise the new ones are those with a greater id, read back page by page until a page starts with an old
/// one.
struct NewPostsReader {
  let forum: any Forum

  /// What a thread got since its cursor.
  struct NewPosts {
    /// Oldest first.
    var posts: [Post]
    /// The index to put the cursor at before relaying `posts`, when deletions moved them below the stored one.
    var rebasedCursor: Int?
    /// The posts before the new ones on the pages read (already relayed), oldest first.
    var seenAgain: [Post] = []
    var threadTitle: String
    var forumID: String?
    var requests: Int
  }

  /// - Parameters:
  ///   - postCount: the thread's posts as the list shows them (replies and the opening post).
  ///   - cursorIndex: the index of the last post relayed.
  ///   - cursorPostID: that post's id, when known (a thread nobody followed has none).
  func read(threadID: String, postCount: Int, cursorIndex: Int, cursorPostID: String?) async throws -> NewPosts {
    guard let lastID = cursorPostID.flatMap({ Int($0) }), cursorIndex > 0 else {
      return try await readWithoutLastID(threadID: threadID, postCount: postCount, cursorIndex: cursorIndex)
    }
    // From the page of the cursor's own post, to check it is still there; when the list shows no post past it (as
    // many deleted as made, or more), from the last page or two. Whole pages are kept, so stepping back below does
    // not ask for a page again.
    let grows = postCount > cursorIndex
    let fetched = try await forum.posts(
      threadID: threadID, after: Self.pageStart(of: grows ? cursorIndex : max(postCount - forumPageSize, 1)))
    var result = NewPosts(
      posts: [], threadTitle: fetched.threadTitle, forumID: fetched.forumID, requests: fetched.pagesFetched)
    if grows, fetched.posts.first(where: { $0.index == cursorIndex })?.id == cursorPostID {
      result.posts = fetched.posts.filter { $0.index > cursorIndex }
      result.seenAgain = fetched.posts.filter { $0.index <= cursorIndex }
      return result
    }
    var posts = fetched.posts
    while let first = posts.first, Self.isNew(first, after: lastID), first.index > 1 {
      let page = try await forum.threadPage(threadID: threadID, page: .number((first.index - 2) / forumPageSize + 1))
      result.requests += 1
      let earlier = page.posts.filter { $0.index < first.index }
      guard !earlier.isEmpty else { break }
      posts = earlier + posts
    }
    result.posts = posts.filter { Self.isNew($0, after: lastID) }
    result.seenAgain = posts.filter { !Self.isNew($0, after: lastID) }
    result.rebasedCursor = (result.posts.first?.index ?? postCount + 1) - 1
    return result
  }

  /// Without the last relayed id only indexes are left: the posts past the cursor, or when the list shows none past
  /// it, the newest post (the one that moved the thread).
  private func readWithoutLastID(threadID: String, postCount: Int, cursorIndex: Int) async throws -> NewPosts {
    let rebases = postCount <= cursorIndex
    let fetched = try await forum.posts(
      threadID: threadID, after: rebases ? max(postCount - forumPageSize, 0) : cursorIndex)
    var result = NewPosts(
      posts: fetched.posts, threadTitle: fetched.threadTitle, forumID: fetched.forumID,
      requests: fetched.pagesFetched)
    if rebases {
      result.posts = Array(fetched.posts.suffix(1))
      result.rebasedCursor = (result.posts.first?.index ?? postCount + 1) - 1
    }
    return result
  }

  /// The index before the first post of the page that shows post `index`.
  private static func pageStart(of index: Int) -> Int { (max(index, 1) - 1) / forumPageSize * forumPageSize }

  private static func isNew(_ post: Post, after lastID: Int) -> Bool { (Int(post.id) ?? 0) > lastID }
}
