import ForumModel
import Foundation

/// What the bookmark commands (`bookmark`, `unbookmark`) need: the bot account's bookmarks on the forum.
package protocol BookmarksEngine: Sendable {
  func bookmark(threadID: String, star: StarColor?) async throws -> (wasBookmarked: Bool, previousStar: StarColor?)
  func unbookmark(threadID: String) async throws -> StarColor?
}

extension ForumBookmarks: BookmarksEngine {}
