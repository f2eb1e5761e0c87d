import Foundation
import GRDB

/// A full sweep of the bookmarks in progress, read a page at a time when no check is due (issue 35, see BotCore's
/// `BookmarksPoll.sweepStep`), so a change never waits behind it; kept here so a restart goes on from the same page.
/// The table holds at most this one row.
///
/// A sweep is what notices a bookmark removed on the web: a thread the store holds as bookmarked that no bookmarks
/// page listed since the sweep began (checks stamp the threads they list too, see `ThreadRecord.listedAt`).
package struct BookmarksSweepRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "bookmarksSweep"

  /// Always 1: there is one sweep at a time.
  package var id: Int = 1
  /// When the sweep began; the next one is due `polling.bookmarksFullSweepSeconds` later.
  package var startedAt: Date
  /// The next bookmarks page to read.
  package var nextPage: Int
  /// Threads no page listed, each confirmed on its thread page before it is taken as unbookmarked (stored as a JSON
  /// array). A bookmark removed on the web while the sweep runs moves every thread after it up a place, so one can
  /// slip from a page not yet read onto one already read; the confirmation keeps that thread from being taken as
  /// unbookmarked (and a later `unwatch` from removing a bookmark the account made).
  package var unlisted: [String]
  package var updatedAt: Date

  package init(startedAt: Date, nextPage: Int, unlisted: [String] = [], updatedAt: Date) {
    self.startedAt = startedAt
    self.nextPage = nextPage
    self.unlisted = unlisted
    self.updatedAt = updatedAt
  }
}
