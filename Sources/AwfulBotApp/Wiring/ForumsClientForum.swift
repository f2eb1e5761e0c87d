import BotCore
import ChatBridge
import ForumModel
import ForumsClient
import Foundation

/// The engine's `Forum` seam served by the HTTP client. `BotCore` cannot import `ForumsClient` (it must not depend
/// on AsyncHTTPClient), so the few types that differ are mapped here.
package struct ForumsClientForum: Forum {
  package let client: ForumsClient

  package init(client: ForumsClient) { self.client = client }

  package var baseURL: URL { client.baseURL }

  package func bookmarks(page: Int) async throws -> ThreadListPage { try await client.bookmarks(page: page) }

  package func addBookmark(threadID: String, star: StarColor?) async throws {
    try await client.addBookmark(threadID: threadID, star: star)
  }

  package func removeBookmark(threadID: String) async throws { try await client.removeBookmark(threadID: threadID) }

  package func threadPage(threadID: String, page: ThreadPageSelector) async throws -> PostsPage {
    try await client.threadPage(threadID: threadID, page: page)
  }

  package func announcements() async throws -> [Announcement] { try await client.announcements() }

  package func forumIndex() async throws -> ForumIndex { try await client.forumIndex() }

  package func threads(forumID: String, page: Int) async throws -> ThreadListPage {
    try await client.threads(forumID: forumID, page: page)
  }

  package func reply(threadID: String, text: String) async throws -> ReplyResult {
    try await client.reply(threadID: threadID, text: text)
  }

  package func quote(postID: String) async throws -> String { try await client.quote(postID: postID) }

  package func locatePost(postID: String) async throws -> PostLocation {
    try await client.locatePost(postID: postID)
  }

  package func privateMessages() async throws -> [PrivateMessageHeader] {
    try await client.privateMessages().messages.map { message in
      PrivateMessageHeader(
        id: message.id, subject: message.subject, sender: message.sender?.name, sentDate: message.sentDate,
        isUnread: !message.status.hasBeenSeen)
    }
  }

  package func privateMessage(id: String) async throws -> PrivateMessageContent {
    let message = try await client.privateMessage(id: id)
    return PrivateMessageContent(
      id: message.id, subject: message.subject ?? "", sender: message.author?.name, sentDate: message.sentDate,
      body: message.body)
  }

  package func replyToPrivateMessage(id: String, text: String) async throws {
    try await client.replyToPrivateMessage(id: id, text: text)
  }

  package func lepersColony(page: Int) async throws -> LepersColonyPage { try await client.lepersColony(page: page) }

  package func rapSheet(user: String, page: Int) async throws -> LepersColonyPage {
    try await client.rapSheet(user: user, page: page)
  }

  package var probation: Probation? {
    get async { await client.probation }
  }

  package var wall: ForumWallSighting? {
    get async { await client.wall }
  }

  package func search(query: String, forumIDs: [String]) async throws -> SearchResultsPage {
    try await client.search(query: query, forumIDs: forumIDs)
  }

  package func searchResults(queryID: String, page: Int) async throws -> SearchResultsPage {
    try await client.searchResults(queryID: queryID, page: page)
  }
}
