import Foundation
import GRDB

/// The full sweep of the bookmarks in progress (BotCore's `BookmarksSweep`); the table holds at most this one row.
package struct BookmarksSweepRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "bookmarksSweep"

  /// Always 1: there is one sweep at a time.
  package var id: Int = 1
  package var startedAt: Date
  package var nextPage: Int
  /// Threads no page listed, still to be confirmed on their own page (stored as a JSON array).
  package var unlisted: [String]
  package var updatedAt: Date

  package init(startedAt: Date, nextPage: Int, unlisted: [String], updatedAt: Date) {
    self.startedAt = startedAt
    self.nextPage = nextPage
    self.unlisted = unlisted
    self.updatedAt = updatedAt
  }
}
