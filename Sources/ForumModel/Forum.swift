import Foundation

/// Everything the engine needs from the forum: the pages it reads and the actions it takes, one requirement each, so
/// one stand-in (the test kit's `TestForum`) serves every test; what can be built from those is a convenience in an
/// extension. `ForumsClient` conforms itself; BotCore gives the stand-ins an answer for what they do not model (the
/// inbox, the Leper's Colony, the search). Errors thrown are `ForumPageError` (the forum said no), `ScrapeError`
/// (page not understood) or transport errors.
package protocol Forum: Sendable {
  /// The forum's base URL, used to build links and to recognise forum links pasted in chat.
  var baseURL: URL { get }
  func bookmarks(page: Int) async throws -> ThreadListPage
  func addBookmark(threadID: String, star: StarColor?) async throws
  func removeBookmark(threadID: String) async throws
  /// One page of a thread, read without moving the account's read markers (`noseen=1`).
  func threadPage(threadID: String, page: ThreadPageSelector) async throws -> PostsPage
  /// The current announcements, each with its title when the thread list and the announcements page agree.
  func announcements() async throws -> [Announcement]
  func forumIndex() async throws -> ForumIndex
  func threads(forumID: String, page: Int) async throws -> ThreadListPage
  /// Posts a reply and returns the new post id when the forum tells it. The forum's refusals (flood check, closed
  /// thread, probation) are errors whose `postingRefusal` (`ForumFailure`) holds the forum's sentence; nothing was
  /// posted then.
  func reply(threadID: String, text: String) async throws -> ReplyResult
  /// What the forum's Quote button puts in the reply box for a post: `[quote="Name" post="P"]\n<its BBCode, without
  /// the quotes it holds>\n[/quote]\n\n`. Nothing is posted.
  func quote(postID: String) async throws -> String
  func locatePost(postID: String) async throws -> PostLocation

  /// The inbox's newest messages (the forum lists 50), newest first, in one request. Reading the list marks
  /// nothing read.
  func privateMessages() async throws -> [PrivateMessageHeader]
  /// One private message with its text; the forum marks it read.
  func privateMessage(id: String) async throws -> PrivateMessageContent
  /// Replies to private message `id` (the forum names the recipient and a "Re:" subject). Refused on probation.
  func replyToPrivateMessage(id: String, text: String) async throws
  /// The account's probation as the last page read showed it; nil when that page had no probation banner.
  var probation: Probation? { get async }
  /// The wall in front of the forum while its answers are walls (`ForumWall`), and since when; nil otherwise.
  var wall: ForumWallSighting? { get async }

  /// One page of the Leper's Colony (`banlist.php?pagenumber=N`), newest first; page 1 is the newest.
  func lepersColony(page: Int) async throws -> LepersColonyPage
  /// One user's rap sheet (`banlist.php?userid=U`), newest first. `user` is a user name or a numeric user id; a name
  /// is looked up on the forum first. A user the forum does not know is `ForumPageError` with the forum's sentence.
  func rapSheet(user: String, page: Int) async throws -> LepersColonyPage

  /// The forum's search (`query.php`, for Platinum accounts): the first page of results for `query`, which may start
  /// with `threadid:N ` to search one thread, in the forums `forumIDs` (none: every forum). The forum's refusals
  /// (not Platinum, searching too soon) are `SearchRefusal` with its sentence.
  func search(query: String, forumIDs: [String]) async throws -> SearchResultsPage
  /// Page `page` of an earlier search, named by its `SearchResultsPage.queryID`.
  func searchResults(queryID: String, page: Int) async throws -> SearchResultsPage
}

extension Forum {
  /// Posts with index greater than `index`, read from the page holding `index + 1` to the end of the thread.
  package func posts(threadID: String, after index: Int) async throws -> PostsAfter {
    try await PostsAfter.collect(threadID: threadID, after: index) { number in
      try await threadPage(threadID: threadID, page: .number(number))
    }
  }
}
