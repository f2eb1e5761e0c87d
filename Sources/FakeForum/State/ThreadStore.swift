import Foundation

/// Threads and their posts. A thread's first `generatedPostCount` posts are synthetic, built only when asked for so
/// a benchmark can have thousands of threads cheaply; the posts after them are stored.
struct ThreadStore {
  private var threadsByID: [Int: FakeThread] = [:]
  /// Each forum's thread ids, in creation order.
  private var threadIDsByForum: [Int: [Int]] = [:]
  private var storedPosts: [Int: FakePost] = [:]
  /// Post-id ranges reserved for synthetic posts, in allocation order (so sorted).
  private var generatedRanges: [(range: Range<Int>, threadID: Int)] = []
  /// The id a thread added without one gets.
  private var nextThreadID = 3_500_000
  private var nextPostID = 400_000_000

  var threadCount: Int { threadsByID.count }
  /// Posts of every thread, synthetic ones included.
  var postCount: Int { threadsByID.values.reduce(0) { $0 + $1.postCount } }

  func thread(_ id: Int) -> FakeThread? { threadsByID[id] }

  /// The post at a 1-based index of a thread, synthetic or stored.
  func post(in thread: FakeThread, index: Int) -> FakePost? {
    guard index >= 1, index <= thread.postCount else { return nil }
    if index <= thread.generatedPostCount {
      let isOpening = index == 1
      return FakePost(
        id: thread.generatedPostBaseID + index - 1, threadID: thread.id,
        authorID: isOpening ? thread.authorID : thread.generatedReplyAuthorID,
        date: thread.createdAt.addingTimeInterval(Double(index - 1) * 60),
        body: .bbcode("Generated post \(index) of \(thread.title)."), index: index)
    }
    return storedPosts[thread.postIDs[index - thread.generatedPostCount - 1]]
  }

  /// Any post by id, synthetic or stored.
  func post(_ id: Int) -> FakePost? {
    if let stored = storedPosts[id] { return stored }
    // The ranges are allocated in increasing order: binary search for the last one starting at or before `id`.
    var low = 0
    var high = generatedRanges.count
    while low < high {
      let middle = (low + high) / 2
      if generatedRanges[middle].range.lowerBound <= id { low = middle + 1 } else { high = middle }
    }
    guard low > 0, generatedRanges[low - 1].range.contains(id),
      let thread = threadsByID[generatedRanges[low - 1].threadID]
    else { return nil }
    return post(in: thread, index: id - generatedRanges[low - 1].range.lowerBound + 1)
  }

  /// How many stored posts a user made and when the last one was (synthetic posts are not counted).
  func storedPostStats(author: Int) -> (count: Int, last: Date?) {
    let dates = storedPosts.values.filter { $0.authorID == author }.map(\.date)
    return (dates.count, dates.max())
  }

  /// A forum's thread ids as the forum lists them: stickies first, then newest last post first.
  func sortedThreadIDs(forum: Int) -> [Int] {
    (threadIDsByForum[forum] ?? []).compactMap { id in
      threadsByID[id].map { (isSticky: $0.isSticky, date: $0.lastPostDate, id: id) }
    }
    .sorted { a, b in
      if a.isSticky != b.isSticky { return a.isSticky }
      if a.date != b.date { return a.date > b.date }
      return a.id > b.id
    }
    .map(\.id)
  }

  /// Thread ids newest last post first, as the bookmarks page lists them; ids of no thread are left out.
  func sortedByLastPost(_ ids: some Sequence<Int>) -> [Int] {
    ids.compactMap { id in threadsByID[id].map { (date: $0.lastPostDate, id: id) } }
      .sorted { a, b in
        if a.date != b.date { return a.date > b.date }
        return a.id > b.id
      }
      .map(\.id)
  }

  /// Thread ids in a bookmarks order other than the forum's own (`sortedByLastPost`); ids of no thread are left out.
  func sorted(_ ids: some Sequence<Int>, by order: BookmarkOrder) -> [Int] {
    switch order {
    case .lastPost:
      return sortedByLastPost(ids)
    case .title:
      return ids.compactMap { id in threadsByID[id].map { (title: $0.title, id: id) } }
        .sorted { ($0.title, $0.id) < ($1.title, $1.id) }
        .map(\.id)
    case .threadID:
      return ids.filter { threadsByID[$0] != nil }.sorted()
    }
  }

  /// A thread without stored posts, under `id` or the next free id; `generatedPosts` synthetic posts are reserved
  /// ids for. The caller checks the forum and the authors. Returns the thread id.
  mutating func insert(
    id: Int?, forum: Int, title: String, author: Int, createdAt: Date, icon: FakeThreadIcon, sticky: Bool,
    closed: Bool, rating: (count: Int, average: Double)?, generatedPosts: Int, replyAuthor: Int
  ) throws -> Int {
    let threadID = id ?? nextThreadID
    guard threadsByID[threadID] == nil else { throw FakeForumError.duplicateID("thread \(threadID)") }
    nextThreadID = max(nextThreadID, threadID + 1)
    let baseID = nextPostID
    if generatedPosts > 0 {
      nextPostID += generatedPosts
      generatedRanges.append((baseID..<(baseID + generatedPosts), threadID))
    }
    let lastGenerated = createdAt.addingTimeInterval(Double(max(0, generatedPosts - 1)) * 60)
    threadsByID[threadID] = FakeThread(
      id: threadID, forumID: forum, title: title, authorID: author, icon: icon, isSticky: sticky, isClosed: closed,
      ratingCount: rating?.count, ratingAverage: rating?.average, createdAt: createdAt,
      generatedPostCount: generatedPosts, generatedPostBaseID: baseID, generatedReplyAuthorID: replyAuthor,
      postIDs: [], lastPostDate: lastGenerated,
      lastPostAuthorID: generatedPosts > 1 ? replyAuthor : author)
    threadIDsByForum[forum, default: []].append(threadID)
    return threadID
  }

  /// A stored post at the end of a thread; the thread's last post moves to it unless it is dated earlier. The
  /// caller checks the author. Returns the post id.
  mutating func appendPost(thread threadID: Int, author: Int, body: FakePostBody, date: Date) throws -> Int {
    guard var thread = threadsByID[threadID] else { throw FakeForumError.unknownThread(threadID) }
    let postID = nextPostID
    nextPostID += 1
    storedPosts[postID] = FakePost(
      id: postID, threadID: threadID, authorID: author, date: date, body: body, index: thread.postCount + 1)
    thread.postIDs.append(postID)
    if thread.postCount == 1 || date >= thread.lastPostDate {
      thread.lastPostDate = date
      thread.lastPostAuthorID = author
    }
    threadsByID[threadID] = thread
    return postID
  }

  /// Replaces a stored post's body, as its author's edit does (same id, index and date).
  mutating func editPost(_ postID: Int, body: FakePostBody) throws {
    guard storedPosts[postID] != nil else {
      throw FakeForumError.invalidArgument("post \(postID) is not a stored post")
    }
    storedPosts[postID]?.body = body
  }

  /// Deletes a stored post, as a moderator does: the posts after it move up one index, and the thread's last post
  /// becomes the one before it when it was the last (so the thread lists show an older last-post time and one reply
  /// fewer). Synthetic posts cannot be deleted. Returns the thread id.
  mutating func deletePost(_ postID: Int) throws -> Int {
    guard let post = storedPosts[postID], var thread = threadsByID[post.threadID],
      let position = thread.postIDs.firstIndex(of: postID)
    else { throw FakeForumError.invalidArgument("post \(postID) is not a stored post") }
    storedPosts[postID] = nil
    thread.postIDs.remove(at: position)
    for id in thread.postIDs[position...] { storedPosts[id]?.index -= 1 }
    if thread.postCount > 0, let last = self.post(in: thread, index: thread.postCount) {
      thread.lastPostDate = last.date
      thread.lastPostAuthorID = last.authorID
    }
    threadsByID[thread.id] = thread
    return thread.id
  }

  mutating func update(_ id: Int, _ change: (inout FakeThread) -> Void) throws {
    guard var thread = threadsByID[id] else { throw FakeForumError.unknownThread(id) }
    change(&thread)
    threadsByID[id] = thread
  }
}
