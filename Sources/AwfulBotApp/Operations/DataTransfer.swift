import BotCore
import BotStore
import Foundation

/// `awfulbot export` and `import`.
package enum DataTransfer {
  /// The sources whose seen sets an export carries, so whose seeding it carries too. The inbox's is not exported:
  /// the new host records the inbox afresh at its first read, rather than alerting on all of it.
  static let exportedSeenSets: Set<String> = [PollSource.announcements.name, PollSource.lepers.name]

  /// Reads everything an export holds from the database at `path` (read-only; fine while the daemon runs).
  package static func export(databasePath path: String, now: Date = Date()) throws -> ExportDocument {
    let database = try ReadOnlyDatabase(path: path)
    defer { try? database.close() }
    return try database.read { tx in
      ExportDocument(
        format: ExportDocument.formatName, version: ExportDocument.currentVersion, exportedAt: now,
        botVersion: AppInfo.version, rooms: try tx.allRooms(),
        subscriptions: try tx.allSubscriptions().map { record in
          var copy = record
          copy.id = nil
          return copy
        }, alerts: try tx.allAlerts(), threads: try tx.allThreads(), watchedForums: try tx.allWatchedForums(),
        seenAnnouncements: try tx.allSeenAnnouncements(), seenPunishments: try tx.allSeenPunishments(),
        seededSources: try tx.allSeededSources().filter { exportedSeenSets.contains($0.source) })
    }
  }

  /// Opens (creating and migrating when needed) the database at `path` and imports the export into it.
  package static func importDocument(_ document: ExportDocument, intoDatabaseAt path: String) async throws {
    let database = try BotDatabase(path: path)
    try await importDocument(document, into: database)
    try database.close()
  }

  /// Writes the export into `database` in one transaction (all of it or nothing). Rows with the same key are
  /// replaced (a room's settings, a thread's cursor, a subscription's filters); other rows are left alone.
  package static func importDocument(
    _ document: ExportDocument, into database: BotDatabase, progress: ProgressReporter = ProgressReporter()
  ) async throws {
    let total = document.rowCount
    try await database.write { tx in
      var done = 0
      func step() {
        done += 1
        if done % 50 == 0 || done == total { progress.update("importing", done: done, total: total) }
      }
      for room in document.rooms {
        try tx.save(room)
        step()
      }
      for subscription in document.subscriptions {
        _ = try tx.ensureRoom(transport: subscription.transport, room: subscription.room, now: subscription.createdAt)
        _ = try tx.upsertSubscription(subscription)
        step()
      }
      for alert in document.alerts {
        _ = try tx.ensureRoom(transport: alert.transport, room: alert.room, now: alert.createdAt)
        try tx.upsertAlert(alert)
        step()
      }
      for thread in document.threads {
        try tx.upsertThread(thread)
        step()
      }
      for forum in document.watchedForums {
        try tx.save(forum)
        step()
      }
      for announcement in document.seenAnnouncements {
        try tx.markAnnouncementSeen(announcement)
        step()
      }
      for punishment in document.seenPunishments ?? [] {
        try tx.markPunishmentSeen(punishment)
        step()
      }
      // A source seeded here already keeps its own record (it may have been seeded by another scheme).
      for seeded in document.seededSources ?? [] {
        if try tx.seedScheme(source: seeded.source) == nil {
          try tx.markSeeded(source: seeded.source, scheme: seeded.scheme, at: seeded.seededAt)
        }
        step()
      }
    }
    progress.finish()
  }
}
