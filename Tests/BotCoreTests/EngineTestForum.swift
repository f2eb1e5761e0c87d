import AwfulBotTestKit
import ChatBridge
import AwfulScraping
import Foundation
import Synchronization

@testable import BotCore

/// An in-process `Forum` for engine tests: threads with posts, bookmarks with stars, announcements, forum thread
/// lists, switchable faults, and a log of every request so tests can count them.
final class EngineTestForum: Forum, Sendable {
  struct Thread {
    var id: String
    var title: String
    var forumID: String
    var posts: [Post] = []
    var isBookmarked = false
    var star: StarColor?
    var authorName = "op"
  }

  struct State {
    var threads: [String: Thread] = [:]
    var announcements: [Announcement] = []
    /// Forum id → thread rows of its first page.
    var forumThreads: [String: [ThreadListThread]] = [:]
    var nextPostID = 1000
    /// Thrown by every request while set.
    var fault: (any Error)?
    /// Thrown only by thread page requests while set.
    var threadFault: (any Error)?
    var requests: [String] = []
  }

  let baseURL = URL(string: "https://forums.example.com/")!
  private let state = Mutex(State())
  private let clock: EngineTestClock

  init(clock: EngineTestClock) {
    self.clock = clock
  }

  // MARK: Test setup

  /// Adds a thread with `postCount` posts (the first by "op").
  @discardableResult
  func addThread(
    _ id: String, title: String? = nil, forumID: String = "1", posts postCount: Int, bookmarked: Bool = true,
    star: StarColor? = nil
  ) -> String {
    state.withLock {
      $0.threads[id] = Thread(
        id: id, title: title ?? "Thread \(id)", forumID: forumID, isBookmarked: bookmarked, star: star)
    }
    for index in 0..<postCount {
      addPost(to: id, author: index == 0 ? "op" : "user\(index)", text: "post \(index + 1)")
    }
    return id
  }

  /// Appends a post and returns it.
  @discardableResult
  func addPost(to threadID: String, author: String, text: String = "hello", body: [RichText]? = nil) -> Post {
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

  func addAnnouncement(title: String, author: String = "Lowtax", body: String) {
    let date = clock.now()
    state.withLock {
      // As the forum client gives them: the title taken from the thread list when the list and the page agree.
      $0.announcements.append(
        Announcement(title: title, author: PostAuthor(name: author), date: date, bodyHTML: body, body: [.text(body)]))
    }
  }

  func addForumThread(forumID: String, id: String, title: String, author: String) {
    state.withLock {
      $0.forumThreads[forumID, default: []].insert(
        ThreadListThread(id: id, title: title, authorName: author), at: 0)
    }
  }

  func setFault(_ error: (any Error)?) { state.withLock { $0.fault = error } }
  func setThreadFault(_ error: (any Error)?) { state.withLock { $0.threadFault = error } }
  var requests: [String] { state.withLock { $0.requests } }
  func resetRequests() { state.withLock { $0.requests = [] } }
  func thread(_ id: String) -> Thread? { state.withLock { $0.threads[id] } }

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

  // MARK: Forum

  func bookmarks(page: Int) async throws -> ThreadListPage {
    try request("bookmarks \(page)")
    let rows = state.withLock { state in
      state.threads.values.filter(\.isBookmarked)
        .sorted { ($0.posts.last?.date ?? .distantPast, $0.id) > ($1.posts.last?.date ?? .distantPast, $1.id) }
        .map { thread in
          ThreadListThread(
            id: thread.id, title: thread.title, authorName: thread.authorName,
            replyCount: max(thread.posts.count - 1, 0), lastPostDate: thread.posts.last?.date,
            lastPostAuthor: thread.posts.last?.author.name, star: thread.star)
        }
    }
    let total = max((rows.count + forumPageSize - 1) / forumPageSize, 1)
    let slice = rows.dropFirst((page - 1) * forumPageSize).prefix(forumPageSize)
    return ThreadListPage(
      isBookmarksPage: true, threads: Array(slice), page: PageNavigation(current: page, total: total))
  }

  func addBookmark(threadID: String, star: StarColor?) async throws {
    try request("addBookmark \(threadID)")
    _ = try lookup(threadID)
    state.withLock {
      $0.threads[threadID]?.isBookmarked = true
      if let star { $0.threads[threadID]?.star = star }
    }
  }

  func removeBookmark(threadID: String) async throws {
    try request("removeBookmark \(threadID)")
    state.withLock { $0.threads[threadID]?.isBookmarked = false }
  }

  func threadPage(threadID: String, page: ThreadPageSelector) async throws -> PostsPage {
    try request("threadPage \(threadID)", isThreadPage: true)
    let thread = try lookup(threadID)
    let pages = max((thread.posts.count + forumPageSize - 1) / forumPageSize, 1)
    let number: Int
    switch page {
    case .last: number = pages
    case .number(let n): number = min(max(n, 1), pages)
    }
    return PostsPage(
      threadID: thread.id, threadTitle: thread.title, forumID: thread.forumID, isBookmarked: thread.isBookmarked,
      page: PageNavigation(current: number, total: pages),
      posts: Array(thread.posts.dropFirst((number - 1) * forumPageSize).prefix(forumPageSize)))
  }

  func posts(threadID: String, after index: Int) async throws -> PostsAfter {
    try request("posts \(threadID) after \(index)", isThreadPage: true)
    let thread = try lookup(threadID)
    let firstPage = index / forumPageSize + 1
    let lastPage = max((thread.posts.count + forumPageSize - 1) / forumPageSize, 1)
    return PostsAfter(
      threadID: thread.id, threadTitle: thread.title, forumID: thread.forumID, isClosed: false,
      posts: thread.posts.filter { $0.index > index }, pagesFetched: max(lastPage - firstPage + 1, 1))
  }

  func announcements() async throws -> [Announcement] {
    try request("announcements")
    return state.withLock { $0.announcements }
  }

  func forumIndex() async throws -> ForumIndex {
    try request("forumIndex")
    return ForumIndex(groups: [], user: nil)
  }

  func threads(forumID: String, page: Int) async throws -> ThreadListPage {
    try request("threads \(forumID)")
    return ThreadListPage(
      forumID: forumID, threads: state.withLock { $0.forumThreads[forumID] ?? [] },
      breadcrumbs: [Breadcrumb(forumID: forumID, name: "Forum \(forumID)", depth: 1)])
  }

  func reply(threadID: String, text: String) async throws -> ReplyResult {
    try request("reply \(threadID)")
    return .post(id: addPost(to: threadID, author: "bot", text: text).id)
  }

  func locatePost(postID: String) async throws -> PostLocation {
    try request("locatePost \(postID)")
    for thread in state.withLock({ Array($0.threads.values) }) {
      if let post = thread.posts.first(where: { $0.id == postID }) {
        return PostLocation(threadID: thread.id, page: (post.index - 1) / forumPageSize + 1)
      }
    }
    throw ForumPageError.standard(title: "Not found", message: "No such post.")
  }
}

/// A stand-in for an HTTP failure of the forum (status 500).
struct EngineTestHTTPError: Error, CustomStringConvertible {
  var status: Int
  var description: String { "The forum answered HTTP \(status)." }
}
