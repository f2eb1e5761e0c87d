import BotStore
import Foundation

/// What reading a newest-first thread list (the bookmarks, a watched forum) remembers from one poll to the next, in
/// the store (table `listMark`), so a restart goes on from the same place.
///
/// The list is ordered by last post, newest first. A thread that got a post after page 1 was read carries a last
/// post at least as new as the newest one page 1 showed then (the forum prints minutes, so "as new" is to the
/// minute). So the next read can stop at the first page that shows a settled thread older than `newestLastPost`
/// (less a margin): nothing below it can have moved since.
struct ThreadListMark: Sendable, Hashable {
  /// The newest last-post time on page 1 at the last successful poll; nil until the list was read once.
  var newestLastPost: Date?
  /// When the whole list was last read to its end (the bookmarks' full sweep).
  var lastFullSweep: Date?
  /// Whether the last read found the list newest-first. The log speaks when this changes, not at every poll.
  var isOrdered = true

  static let bookmarksKey = "bookmarks"

  static func forumKey(_ forumID: String) -> String { "forum:\(forumID)" }

  static func load(in tx: StoreTransaction, key: String) throws -> ThreadListMark? {
    try tx.listMark(list: key).map { record in
      ThreadListMark(
        newestLastPost: record.newestLastPost, lastFullSweep: record.lastFullSweep, isOrdered: record.isOrdered)
    }
  }

  func save(in tx: StoreTransaction, key: String, now: Date) throws {
    try tx.save(
      ListMarkRecord(
        list: key, newestLastPost: newestLastPost, lastFullSweep: lastFullSweep, isOrdered: isOrdered, updatedAt: now))
  }
}
