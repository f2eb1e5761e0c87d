import AwfulBotTestKit
import BotCore
import ChatBridge
import ForumModel
import Foundation
import Synchronization

/// The in-process `Forum` every engine and command test uses: threads with posts, bookmarks with stars, a forum
/// index, announcements, forum thread lists, switchable faults, and a log of every request so tests can count them.
/// Replies are refused as the forum refuses them (closed thread, flood check, or any refusal a test sets), with the
/// forum's sentence in a `PostingRefusal`.
package final class TestForum: Forum, Sendable {
  package struct Thread: Sendable {
    package var id: String
    package var title: String
    package var forumID: String
    package var posts: [Post]
    package var isBookmarked: Bool
    package var star: StarColor?
    package var isClosed: Bool
    /// The thread's starter as the bookmarks list names it; a post by this name is the original poster's.
    package var authorName: String?
    /// What the bookmarks list says is unread for the account.
    package var unreadCount: Int?
    /// The forum named in the thread page's breadcrumbs.
    package var forumName: String?

    package init(
      id: String, title: String, forumID: String, posts: [Post] = [], isBookmarked: Bool = false,
      star: StarColor? = nil, isClosed: Bool = false, authorName: String? = nil, unreadCount: Int? = nil,
      forumName: String? = nil
    ) {
      self.id = id
      self.title = title
      self.forumID = forumID
      self.posts = posts
      self.isBookmarked = isBookmarked
      self.star = star
      self.isClosed = isClosed
      self.authorName = authorName
      self.unreadCount = unreadCount
      self.forumName = forumName
    }
  }

  private struct State {
    var threads: [String: Thread] = [:]
    var index = ForumIndex(groups: [], user: nil)
    var announcements: [Announcement] = []
    /// Forum id → thread rows of its first page, when a test lists them itself.
    var forumThreads: [String: [ThreadListThread]] = [:]
    var nextPostID = 1000
    /// Thrown by every request while set.
    var fault: (any Error)?
    /// Thrown only by thread page requests while set.
    var threadFault: (any Error)?
    /// Threads the list shows whose pages say "not found" (deleted, or moved where the account cannot see them).
    var unreadable: Set<String> = []
    var requests: [String] = []
    var replies: [(threadID: String, text: String)] = []
    /// Thrown by every reply while set, nothing posted.
    var replyRefusal: (any Error)?
    /// The flood check's minimum between two replies, in seconds of the test clock; 0 is off.
    var floodInterval = 0
    var lastReplyDate: Date?
  }

  package let baseURL: URL
  private let state = Mutex(State())
  private let clock: TestClock
  /// The forum's search (`search`, `searchResults`) over the threads' posts, and the refusal a test sets.
  package let searching = TestSearch()
  /// The Leper's Colony (`lepersColony(page:)`, `rapSheet(user:page:)`); empty until a test punishes someone.
  package let lepers: TestLepersColony

  package init(baseURL: URL = URL(string: "https://forums.example.com/")!, clock: TestClock = TestClock()) {
    self.baseURL = baseURL
    self.clock = clock
    self.lepers = TestLepersColony(clock: clock)
  }

  // MARK: Test setup

  package func add(_ thread: Thread) { state.withLock { $0.threads[thread.id] = thread } }
  package func setIndex(_ index: ForumIndex) { state.withLock { $0.index = index } }
  /// Numbers the next new post `id + 1`.
  package func startPostIDs(after id: Int) { state.withLock { $0.nextPostID = id } }

  /// Adds a thread with `postCount` posts (the first by "op").
  @discardableResult
  package func addThread(
    _ id: String, title: String? = nil, forumID: String = "1", posts postCount: Int, bookmarked: Bool = true,
    star: StarColor? = nil
  ) -> String {
    add(
      Thread(
        id: id, title: title ?? "Thread \(id)", forumID: forumID, isBookmarked: bookmarked, star: star,
        authorName: "op"))
    for index in 0..<postCount {
      addPost(to: id, author: index == 0 ? "op" : "user\(index)", text: "post \(index + 1)")
    }
    return id
  }

  /// Appends a post dated by the clock and returns it.
  @discardableResult
  package func addPost(to threadID: String, author: String, text: String = "hello", body: [RichText]? = nil) -> Post {
    let date = clock.now()
    return state.withLock { state in
      var thread = state.threads[threadID]!
      state.nextPostID += 1
      let post = Post(
        id: String(state.nextPostID), index: thread.posts.count + 1,
        author: PostAuthor(name: author, isOriginalPoster: author == thread.authorName), date: date,
        bodyHTML: text, body: body ?? [.text(text)])
      thread.posts.append(post)
      state.threads[threadID] = thread
      return post
    }
  }

  /// Changes a post's text, as its author's edit does (same id, index and date).
  package func editPost(_ postID: String, in threadID: String, text: String) {
    state.withLock { state in
      guard let index = state.threads[threadID]?.posts.firstIndex(where: { $0.id == postID }) else { return }
      state.threads[threadID]?.posts[index].bodyHTML = text
      state.threads[threadID]?.posts[index].body = [.text(text)]
    }
  }

  /// Deletes a post as a moderator does: the posts after it move up an index.
  package func deletePost(_ postID: String, in threadID: String) {
    state.withLock { state in
      guard var thread = state.threads[threadID], let position = thread.posts.firstIndex(where: { $0.id == postID })
      else { return }
      thread.posts.remove(at: position)
      for index in position..<thread.posts.count { thread.posts[index].index -= 1 }
      state.threads[threadID] = thread
    }
  }

  package func addAnnouncement(title: String, author: String = "Lowtax", body: String) {
    let date = clock.now()
    state.withLock {
      // As the forum client gives them: the title taken from the thread list when the list and the page agree.
      $0.announcements.append(
        Announcement(title: title, author: PostAuthor(name: author), date: date, bodyHTML: body, body: [.text(body)]))
    }
  }

  /// Lists a thread first on a forum's first page (the forum is then named "Forum <id>" in the breadcrumbs).
  package func addForumThread(forumID: String, id: String, title: String, author: String) {
    state.withLock {
      $0.forumThreads[forumID, default: []].insert(ThreadListThread(id: id, title: title, authorName: author), at: 0)
    }
  }

  package func setFault(_ error: (any Error)?) { state.withLock { $0.fault = error } }
  package func setThreadFault(_ error: (any Error)?) { state.withLock { $0.threadFault = error } }
  /// Makes a thread's pages answer "not found" while the bookmarks list still shows it, or readable again.
  package func setUnreadable(_ threadID: String, _ unreadable: Bool = true) {
    state.withLock { if unreadable { $0.unreadable.insert(threadID) } else { $0.unreadable.remove(threadID) } }
  }
  /// Every reply throws `error` while it is set (e.g. `PostingRefusal.floodCheck(interval: 30, retryAfter: 12)`),
  /// and nothing is posted.
  package func setReplyRefusal(_ error: (any Error)?) { state.withLock { $0.replyRefusal = error } }
  /// Turns on the forum's flood check: a reply less than `seconds` (by the test clock) after the previous one is
  /// refused with `PostingRefusal.floodCheck`, the seconds left rounded up. 0 turns it off.
  package func setFloodInterval(_ seconds: Int) { state.withLock { $0.floodInterval = max(0, seconds) } }
  /// Every request so far, named with its arguments ("bookmarks 1", "posts 7 after 2").
  package var requests: [String] { state.withLock { $0.requests } }
  package func resetRequests() { state.withLock { $0.requests = [] } }
  package func thread(_ id: String) -> Thread? { state.withLock { $0.threads[id] } }
  /// The replies posted through the forum, in order.
  package var replies: [(threadID: String, text: String)] { state.withLock { $0.replies } }

  private func request(_ name: String, isThreadPage: Bool = false) throws {
    try state.withLock { state in
      state.requests.append(name)
      if let fault = state.fault { throw fault }
      if isThreadPage, let fault = state.threadFault { throw fault }
    }
  }

  private func lookup(_ id: String) throws -> Thread {
    guard let thread = state.withLock({ $0.threads[id] }) else {
      throw ForumPageError.standard(title: "Specified thread was not found", message: "Invalid thread ID.")
    }
    return thread
  }

  private static func pageCount(_ count: Int) -> Int { max((count + forumPageSize - 1) / forumPageSize, 1) }

  // MARK: Forum

  package func bookmarks(page: Int) async throws -> ThreadListPage {
    try request("bookmarks \(page)")
    let rows = state.withLock { state in
      state.threads.values.filter(\.isBookmarked)
        .sorted { ($0.posts.last?.date ?? .distantPast, $0.id) > ($1.posts.last?.date ?? .distantPast, $1.id) }
        .map { thread in
          ThreadListThread(
            id: thread.id, title: thread.title, authorName: thread.authorName,
            replyCount: max(thread.posts.count - 1, 0), unreadCount: thread.unreadCount,
            lastPostDate: thread.posts.last?.date, lastPostAuthor: thread.posts.last?.author.name, star: thread.star)
        }
    }
    let slice = rows.dropFirst((page - 1) * forumPageSize).prefix(forumPageSize)
    return ThreadListPage(
      isBookmarksPage: true, threads: Array(slice),
      page: PageNavigation(current: page, total: Self.pageCount(rows.count)))
  }

  package func addBookmark(threadID: String, star: StarColor?) async throws {
    try request("addBookmark \(threadID)")
    _ = try lookup(threadID)
    state.withLock {
      $0.threads[threadID]?.isBookmarked = true
      if let star { $0.threads[threadID]?.star = star }
    }
  }

  package func removeBookmark(threadID: String) async throws {
    try request("removeBookmark \(threadID)")
    state.withLock {
      // The forum forgets the star with the bookmark.
      $0.threads[threadID]?.isBookmarked = false
      $0.threads[threadID]?.star = nil
    }
  }

  package func threadPage(threadID: String, page: ThreadPageSelector) async throws -> PostsPage {
    try request("threadPage \(threadID)", isThreadPage: true)
    if state.withLock({ $0.unreadable.contains(threadID) }) {
      throw ForumNotFound(subject: .thread, message: "Specified thread was not found")
    }
    let thread = try lookup(threadID)
    let pages = Self.pageCount(thread.posts.count)
    let number: Int
    switch page {
    case .last: number = pages
    case .number(let n): number = min(max(n, 1), pages)
    }
    return PostsPage(
      threadID: thread.id, threadTitle: thread.title, forumID: thread.forumID,
      breadcrumbs: thread.forumName.map { [Breadcrumb(forumID: thread.forumID, name: $0, depth: 1)] } ?? [],
      isClosed: thread.isClosed, isBookmarked: thread.isBookmarked, page: PageNavigation(current: number, total: pages),
      posts: Array(thread.posts.dropFirst((number - 1) * forumPageSize).prefix(forumPageSize)))
  }

  package func announcements() async throws -> [Announcement] {
    try request("announcements")
    return state.withLock { $0.announcements }
  }

  package func forumIndex() async throws -> ForumIndex {
    try request("forumIndex")
    return state.withLock { $0.index }
  }

  /// The rows a test listed with `addForumThread`, or else the threads in that forum (one page, unnamed).
  package func threads(forumID: String, page: Int) async throws -> ThreadListPage {
    try request("threads \(forumID)")
    return state.withLock { state in
      if let listed = state.forumThreads[forumID] {
        return ThreadListPage(
          forumID: forumID, threads: listed,
          breadcrumbs: [Breadcrumb(forumID: forumID, name: "Forum \(forumID)", depth: 1)])
      }
      let rows = state.threads.values.filter { $0.forumID == forumID }.sorted { $0.id < $1.id }.map {
        ThreadListThread(id: $0.id, title: $0.title, replyCount: max($0.posts.count - 1, 0))
      }
      return ThreadListPage(
        forumID: forumID, threads: page == 1 ? rows : [], page: PageNavigation(current: page, total: 1))
    }
  }

  /// Posts as "AwfulBot" and answers with the new post's id, unless the forum refuses: a closed thread, the flood
  /// check, or the refusal a test set.
  package func reply(threadID: String, text: String) async throws -> ReplyResult {
    try request("reply \(threadID)")
    let thread = try lookup(threadID)
    if thread.isClosed { throw Self.closedRefusal }
    let now = clock.now()
    try state.withLock { state in
      if let refusal = state.replyRefusal { throw refusal }
      if state.floodInterval > 0, let last = state.lastReplyDate {
        let left = Double(state.floodInterval) - now.timeIntervalSince(last)
        if left > 0 {
          throw PostingRefusal.floodCheck(interval: state.floodInterval, retryAfter: max(1, Int(left.rounded(.up))))
        }
      }
      state.lastReplyDate = now
      state.replies.append((threadID, text))
    }
    return .post(id: addPost(to: threadID, author: "AwfulBot", text: text).id)
  }

  /// The forum's Quote text for a stored post: `[quote="Name" post="P"]`, the post's own words (its quotes left out,
  /// as the forum leaves them out), `[/quote]` and a blank line. A post of a closed thread is refused as the forum
  /// refuses its reply form; an unknown post is the forum's "Invalid post specified" page.
  package func quote(postID: String) async throws -> String {
    try request("quote \(postID)")
    for thread in state.withLock({ Array($0.threads.values) }) {
      guard let post = thread.posts.first(where: { $0.id == postID }) else { continue }
      if thread.isClosed { throw Self.closedRefusal }
      let words = plainText(post.body, quotes: .omitted).trimmingCharacters(in: .whitespacesAndNewlines)
      return "[quote=\"\(post.author.name)\" post=\"\(post.id)\"]\n\(words)\n[/quote]\n\n"
    }
    throw ForumPageError.standard(
      title: "Special Message From Senor Lowtax",
      message: "Invalid post specified. If you followed a valid link, please notify the webmaster.")
  }

  private static let closedRefusal = PostingRefusal(.threadClosed, message: "Sorry! This thread is closed!")

  package func lepersColony(page: Int) async throws -> LepersColonyPage {
    try request("lepers \(page)")
    return lepers.page(page)
  }

  package func rapSheet(user: String, page: Int) async throws -> LepersColonyPage {
    try request("rapSheet \(user) \(page)")
    return try lepers.rapSheet(user: user, page: page)
  }

  package func search(query: String, forumIDs: [String]) async throws -> SearchResultsPage {
    try request("search \(query) in [\(forumIDs.joined(separator: ","))]")
    return try searching.search(query: query, forumIDs: forumIDs, threads: state.withLock { Array($0.threads.values) })
  }

  package func searchResults(queryID: String, page: Int) async throws -> SearchResultsPage {
    try request("searchResults \(queryID) \(page)")
    return try searching.page(queryID: queryID, page: page)
  }

  package func locatePost(postID: String) async throws -> PostLocation {
    try request("locatePost \(postID)")
    for thread in state.withLock({ Array($0.threads.values) }) {
      if let post = thread.posts.first(where: { $0.id == postID }) {
        return PostLocation(threadID: thread.id, page: (post.index - 1) / forumPageSize + 1)
      }
    }
    throw ForumPageError.standard(title: "Invalid post", message: "No such post.")
  }
}
