import AwfulScraping
import BotCore
import ForumsClient
import Foundation

/// The engine's `Forum` seam over the HTTP client: a copy of the app's `ForumsClientForum`, so these tests do not
/// depend on the whole app target.
struct ClientForum: Forum {
  let client: ForumsClient

  init(client: ForumsClient) { self.client = client }

  var baseURL: URL { client.baseURL }

  func bookmarks(page: Int) async throws -> ThreadListPage { try await client.bookmarks(page: page) }

  func addBookmark(threadID: String, star: StarColor?) async throws {
    try await client.addBookmark(threadID: threadID, star: star)
  }

  func removeBookmark(threadID: String) async throws { try await client.removeBookmark(threadID: threadID) }

  func threadPage(threadID: String, page: ThreadPageSelector) async throws -> PostsPage {
    let selector: ForumsClient.PageSelector =
      switch page {
      case .number(let number): .number(number)
      case .last: .last
      }
    return try await client.threadPage(threadID: threadID, page: selector)
  }

  func posts(threadID: String, after index: Int) async throws -> PostsAfter {
    let result = try await client.posts(threadID: threadID, after: index)
    return PostsAfter(
      threadID: result.threadID, threadTitle: result.threadTitle, forumID: result.forumID, isClosed: result.isClosed,
      posts: result.posts, pagesFetched: result.pagesFetched)
  }

  func announcements() async throws -> [Announcement] { try await client.announcements() }

  func announcementRows() async throws -> [ThreadListAnnouncement] { try await client.announcementRows() }

  func forumIndex() async throws -> ForumIndex { try await client.forumIndex() }

  func threads(forumID: String, page: Int) async throws -> ThreadListPage {
    try await client.threads(forumID: forumID, page: page)
  }

  func reply(threadID: String, text: String) async throws -> ReplyResult {
    try await client.reply(threadID: threadID, text: text)
  }

  func locatePost(postID: String) async throws -> PostLocation {
    let location = try await client.locatePost(postID: postID)
    return PostLocation(threadID: location.threadID, page: location.page)
  }
}
