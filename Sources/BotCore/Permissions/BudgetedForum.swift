import ChatBridge
import ForumModel
import Foundation

/// The forum as commands see it: every request first takes one from the commands' share (`CommandBudget`), so chat
/// can never take the account's whole pace from polling. Over the share, a request is refused with a sentence
/// saying when to try again, before it reaches the forum.
struct BudgetedForum: Forum {
  let base: any Forum
  let budget: CommandBudget
  let now: @Sendable () -> Date

  var baseURL: URL { base.baseURL }

  private func take() async throws {
    guard let wait = await budget.takeForumRequest(now: now()) else { return }
    throw CommandError.failed(
      "Chat commands have used their share of forum requests for now (polling the forum keeps the rest); "
        + "try again in \(wait) seconds.")
  }

  func bookmarks(page: Int) async throws -> ThreadListPage {
    try await take()
    return try await base.bookmarks(page: page)
  }

  func addBookmark(threadID: String, star: StarColor?) async throws {
    try await take()
    try await base.addBookmark(threadID: threadID, star: star)
  }

  func removeBookmark(threadID: String) async throws {
    try await take()
    try await base.removeBookmark(threadID: threadID)
  }

  func threadPage(threadID: String, page: ThreadPageSelector) async throws -> PostsPage {
    try await take()
    return try await base.threadPage(threadID: threadID, page: page)
  }

  func announcements() async throws -> [Announcement] {
    try await take()
    return try await base.announcements()
  }

  func forumIndex() async throws -> ForumIndex {
    try await take()
    return try await base.forumIndex()
  }

  func threads(forumID: String, page: Int) async throws -> ThreadListPage {
    try await take()
    return try await base.threads(forumID: forumID, page: page)
  }

  func reply(threadID: String, text: String) async throws -> ReplyResult {
    try await take()
    return try await base.reply(threadID: threadID, text: text)
  }

  func quote(postID: String) async throws -> String {
    try await take()
    return try await base.quote(postID: postID)
  }

  func locatePost(postID: String) async throws -> PostLocation {
    try await take()
    return try await base.locatePost(postID: postID)
  }

  func privateMessages() async throws -> [PrivateMessageHeader] {
    try await take()
    return try await base.privateMessages()
  }

  func privateMessage(id: String) async throws -> PrivateMessageContent {
    try await take()
    return try await base.privateMessage(id: id)
  }

  func replyToPrivateMessage(id: String, text: String) async throws {
    try await take()
    try await base.replyToPrivateMessage(id: id, text: text)
  }

  /// A search is the forum's two requests (the POST and the results it redirects to): it takes two.
  func search(query: String, forumIDs: [String]) async throws -> SearchResultsPage {
    try await take()
    try await take()
    return try await base.search(query: query, forumIDs: forumIDs)
  }

  func searchResults(queryID: String, page: Int) async throws -> SearchResultsPage {
    try await take()
    return try await base.searchResults(queryID: queryID, page: page)
  }

  func lepersColony(page: Int) async throws -> LepersColonyPage {
    try await take()
    return try await base.lepersColony(page: page)
  }

  func rapSheet(user: String, page: Int) async throws -> LepersColonyPage {
    try await take()
    return try await base.rapSheet(user: user, page: page)
  }

  var probation: Probation? { get async { await base.probation } }

  var wall: ForumWallSighting? { get async { await base.wall } }
}
