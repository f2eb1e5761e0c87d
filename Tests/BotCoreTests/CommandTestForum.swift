import AwfulBotTestKit
import ChatBridge
import AwfulScraping
import Foundation

@testable import BotCore

/// An in-process `Forum` for command tests: a few threads, a forum index, bookmarks, and switchable failures.
actor CommandTestForum: Forum {
  struct Thread {
    var id: String
    var title: String
    var forumID: String
    var posts: [Post]
    var isBookmarked: Bool = false
    var star: StarColor?
    var isClosed: Bool = false
  }

  nonisolated let baseURL: URL
  var threads: [String: Thread] = [:]
  var index = ForumIndex(groups: [], user: nil)
  var replies: [(threadID: String, text: String)] = []
  var bookmarkCalls: [(threadID: String, star: StarColor?)] = []
  var removedBookmarks: [String] = []
  /// When set, every call throws it.
  var failure: (any Error)?
  var requests = 0

  init(baseURL: URL = URL(string: "https://forums.somethingawful.com/")!) {
    self.baseURL = baseURL
  }

  func setFailure(_ error: (any Error)?) { failure = error }
  func add(_ thread: Thread) { threads[thread.id] = thread }
  func setIndex(_ index: ForumIndex) { self.index = index }
  func thread(_ id: String) -> Thread? { threads[id] }

  private func check() throws {
    requests += 1
    if let failure { throw failure }
  }

  private func lookup(_ id: String) throws -> Thread {
    guard let thread = threads[id] else {
      throw ForumPageError.standard(title: "Specified thread was not found", message: "Invalid thread ID.")
    }
    return thread
  }

  func bookmarks(page: Int) async throws -> ThreadListPage {
    try check()
    let rows = threads.values.filter(\.isBookmarked).sorted { $0.id < $1.id }.map { thread in
      ThreadListThread(
        id: thread.id, title: thread.title, replyCount: max(thread.posts.count - 1, 0),
        unreadCount: thread.id == "100" ? 3 : nil, lastPostDate: thread.posts.last?.date,
        lastPostAuthor: thread.posts.last?.author.name, star: thread.star)
    }
    return ThreadListPage(
      isBookmarksPage: true, threads: page == 1 ? rows : [], page: PageNavigation(current: page, total: 1))
  }

  func addBookmark(threadID: String, star: StarColor?) async throws {
    try check()
    _ = try lookup(threadID)
    bookmarkCalls.append((threadID, star))
    threads[threadID]?.isBookmarked = true
    if let star { threads[threadID]?.star = star }
  }

  func removeBookmark(threadID: String) async throws {
    try check()
    removedBookmarks.append(threadID)
    threads[threadID]?.isBookmarked = false
    threads[threadID]?.star = nil
  }

  func threadPage(threadID: String, page: ThreadPageSelector) async throws -> PostsPage {
    try check()
    let thread = try lookup(threadID)
    let total = max(1, (thread.posts.count + forumPageSize - 1) / forumPageSize)
    let number: Int
    switch page {
    case .number(let value): number = min(max(value, 1), total)
    case .last: number = total
    }
    let posts = Array(thread.posts.dropFirst((number - 1) * forumPageSize).prefix(forumPageSize))
    return PostsPage(
      threadID: thread.id, threadTitle: thread.title, forumID: thread.forumID,
      breadcrumbs: [Breadcrumb(forumID: thread.forumID, name: "General Bullshit", depth: 1)],
      isClosed: thread.isClosed, isBookmarked: thread.isBookmarked, page: PageNavigation(current: number, total: total),
      posts: posts)
  }

  func posts(threadID: String, after index: Int) async throws -> PostsAfter {
    try check()
    let thread = try lookup(threadID)
    return PostsAfter(
      threadID: thread.id, threadTitle: thread.title, forumID: thread.forumID, isClosed: thread.isClosed,
      posts: thread.posts.filter { $0.index > index }, pagesFetched: 1)
  }

  func announcements() async throws -> [Announcement] {
    try check()
    return []
  }

  func forumIndex() async throws -> ForumIndex {
    try check()
    return index
  }

  func threads(forumID: String, page: Int) async throws -> ThreadListPage {
    try check()
    let rows = threads.values.filter { $0.forumID == forumID }.sorted { $0.id < $1.id }.map {
      ThreadListThread(id: $0.id, title: $0.title, replyCount: max($0.posts.count - 1, 0))
    }
    return ThreadListPage(
      forumID: forumID, threads: page == 1 ? rows : [], page: PageNavigation(current: page, total: 1))
  }

  func reply(threadID: String, text: String) async throws -> ReplyResult {
    try check()
    var thread = try lookup(threadID)
    let id = String(900_000 + replies.count)
    replies.append((threadID, text))
    thread.posts.append(
      Post(id: id, index: thread.posts.count + 1, author: PostAuthor(name: "AwfulBot"), body: [.text(text)]))
    threads[threadID] = thread
    return .post(id: id)
  }

  func locatePost(postID: String) async throws -> PostLocation {
    try check()
    for thread in threads.values {
      if let offset = thread.posts.firstIndex(where: { $0.id == postID }) {
        return PostLocation(threadID: thread.id, page: offset / forumPageSize + 1)
      }
    }
    throw ForumPageError.standard(title: "Invalid post", message: "No such post.")
  }
}

extension CommandTestForum {
  /// Two forums, three threads (one in each, one closed), thread 100 bookmarked.
  static func seeded() async -> CommandTestForum {
    let forum = CommandTestForum()
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    func posts(_ prefix: String, count: Int) -> [Post] {
      (1...count).map { index in
        Post(
          id: "\(prefix)\(index)", index: index,
          author: PostAuthor(name: index == 1 ? "OriginalPoster" : "Poster\(index)", isOriginalPoster: index == 1),
          date: date.addingTimeInterval(Double(index) * 60), body: [.text("Post number \(index) of \(prefix)")])
      }
    }
    await forum.add(
      Thread(
        id: "100", title: "The Bookmarked Thread", forumID: "26", posts: posts("10", count: 45), isBookmarked: true))
    await forum.add(Thread(id: "200", title: "Another Thread", forumID: "26", posts: posts("20", count: 3)))
    await forum.add(
      Thread(id: "300", title: "Closed Thread", forumID: "273", posts: posts("30", count: 2), isClosed: true))
    await forum.setIndex(
      ForumIndex(
        groups: [
          ForumNode(
            id: "48", title: "Main", hasThreads: false,
            subforums: [
              ForumNode(id: "26", title: "FYAD", hasThreads: true),
              ForumNode(id: "273", title: "General Bullshit", shortTitle: "GBS", hasThreads: true),
              ForumNode(id: "274", title: "General Chat", hasThreads: true),
            ])
        ], user: nil))
    return forum
  }
}
