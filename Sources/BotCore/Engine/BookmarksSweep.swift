import BotStore
import Foundation

/// A full sweep of the bookmarks in progress, read a page at a time when no check is due (issue 35), so a change
/// never waits behind it. Kept in the store (table `bookmarksSweep`), so a restart goes on from the same page.
///
/// A sweep is what notices a bookmark removed on the web: a thread the store holds as bookmarked that no bookmarks
/// page listed since the sweep began (checks stamp the threads they list too, see `ThreadRecord.listedAt`).
struct BookmarksSweep: Sendable, Hashable {
  /// When the sweep began; the next one is due `polling.bookmarksFullSweepSeconds` later.
  var startedAt: Date
  /// The next bookmarks page to read.
  var nextPage: Int
  /// Threads no page listed, each confirmed on its thread page before it is taken as unbookmarked. A bookmark
  /// removed on the web while the sweep runs moves every thread after it up a place, so one can slip from a page
  /// not yet read onto one already read; the confirmation keeps that thread from being taken as unbookmarked (and a
  /// later `unwatch` from removing a bookmark the account made).
  var unlisted: [String] = []

  static func load(in tx: StoreTransaction) throws -> BookmarksSweep? {
    try tx.bookmarksSweep().map {
      BookmarksSweep(startedAt: $0.startedAt, nextPage: $0.nextPage, unlisted: $0.unlisted)
    }
  }

  func save(in tx: StoreTransaction, now: Date) throws {
    try tx.save(BookmarksSweepRecord(startedAt: startedAt, nextPage: nextPage, unlisted: unlisted, updatedAt: now))
  }

  static func remove(in tx: StoreTransaction) throws {
    try tx.removeBookmarksSweep()
  }
}
