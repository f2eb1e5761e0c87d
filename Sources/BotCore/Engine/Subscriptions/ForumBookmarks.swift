import BotStore
import ChatBridge
import ForumModel
import Foundation

/// The bot account's bookmarks on the forum, changed on the forum and noted in the store (`bookmark`,
/// `unbookmark`), returning what they were so the change can be undone.
package struct ForumBookmarks: Sendable, EnginePart {
  var context: EngineContext
  /// Woken after a bookmark is added, so the poller reads the bookmarks now.
  let pollSignal: WakeSignal

  /// The same bookmarks, changed on the forum through `forum` (a command's budgeted forum).
  package func through(_ forum: any Forum) -> ForumBookmarks {
    var bookmarks = self
    bookmarks.context = context.through(forum)
    return bookmarks
  }

  /// Bookmarks a thread on the forum (optionally with a star colour) and notes it in the store.
  /// Returns whether it was already bookmarked (as far as the bot knows) and its previous star, for undo.
  @discardableResult
  package func bookmark(threadID: String, star: StarColor? = nil) async throws -> (
    wasBookmarked: Bool, previousStar: StarColor?
  ) {
    try await forum.addBookmark(threadID: threadID, star: star)
    let previous = try await database.write { tx -> (Bool, StarColor?) in
      guard var thread = try tx.thread(id: threadID) else { return (false, nil) }
      let previous = (thread.isBookmarked, thread.star.flatMap(StarColor.init(rawValue:)))
      thread.isBookmarked = true
      thread.star = star?.rawValue ?? thread.star
      try tx.save(thread)
      return previous
    }
    pollSignal.signal()
    return (previous.0, previous.1)
  }

  /// Removes a thread's bookmark on the forum. Returns the star it had (as far as the bot knows), for undo.
  @discardableResult
  package func unbookmark(threadID: String) async throws -> StarColor? {
    try await forum.removeBookmark(threadID: threadID)
    return try await database.write { tx in
      guard var thread = try tx.thread(id: threadID) else { return nil }
      let star = thread.star.flatMap(StarColor.init(rawValue:))
      thread.isBookmarked = false
      thread.addedByBot = false
      try tx.save(thread)
      return star
    }
  }
}
