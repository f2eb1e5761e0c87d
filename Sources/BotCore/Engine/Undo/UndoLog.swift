import BotStore
import ChatBridge
import ForumModel
import Foundation

/// Each user's recent changes in a room, kept so `undo` can revert the latest within the window (10 minutes), and
/// the reverting itself, through the parts that made the change.
package struct UndoLog: Sendable, EnginePart {
  let context: EngineContext
  var subscriptions: SubscriptionBook
  var bookmarks: ForumBookmarks
  let roomSettings: RoomSettingsBook
  let alerts: AlertBook

  /// The log as `undo` uses it: reverting goes to the forum through `forum` (the commands' budgeted forum), and a
  /// subscription brought back is held to the room's caps like a new one (`SubscriptionBook.forCommands`).
  package func forCommands(through forum: any Forum) -> UndoLog {
    var log = self
    log.subscriptions = subscriptions.forCommands(through: forum)
    log.bookmarks = bookmarks.through(forum)
    return log
  }

  /// Records how to revert a user's change in a room; `undo` within the window (10 minutes) runs it.
  package func record(room: RoomRef, userID: String, summary: String, actions: [UndoAction]) async throws {
    let now = now()
    let window = configuration.undoWindow
    let record = UndoRecord(
      transport: room.transport, room: room.room, userID: userID, summary: summary,
      actions: try RelayCoding.encode(actions), createdAt: now)
    try await database.write { tx in
      try tx.pruneUndo(before: now.addingTimeInterval(-window.timeInterval))
      _ = try tx.insertUndo(record)
    }
  }

  /// Takes (removes and returns) the user's latest undo entry in the room if it is still within the window.
  package func take(room: RoomRef, userID: String) async throws -> UndoEntry? {
    let since = now().addingTimeInterval(-configuration.undoWindow.timeInterval)
    let record = try await database.write { tx -> UndoRecord? in
      guard let record = try tx.latestUndo(transport: room.transport, room: room.room, userID: userID, since: since)
      else { return nil }
      if let id = record.id { try tx.deleteUndo(id: id) }
      return record
    }
    guard let record, let id = record.id,
      // An entry written by an older version, in a shape this one no longer reads (its ten minutes spanned an
      // upgrade), is dropped rather than failing every later `undo`.
      let actions = try? RelayCoding.decode([UndoAction].self, from: record.actions)
    else { return nil }
    return UndoEntry(
      id: id, room: room, userID: userID, summary: record.summary, actions: actions, createdAt: record.createdAt)
  }

  /// Runs an undo entry's actions in order against the forum and the store.
  package func revert(_ entry: UndoEntry) async throws {
    let room = entry.room
    for action in entry.actions {
      switch action {
      case .removeBookmark(let threadID): try await bookmarks.unbookmark(threadID: threadID)
      case .addBookmark(let threadID, let star): try await bookmarks.bookmark(threadID: threadID, star: star)
      case .deleteSubscription(let id): try await subscriptions.unsubscribe(room: room, id: id)
      case .restoreSubscription(let target, let filters):
        try await subscriptions.subscribe(room: room, to: target, filters: filters, createdBy: entry.userID)
      case .restoreRoomSettings(let patch): try await roomSettings.update(room: room) { try patch.apply(to: &$0) }
      case .removeAlert(let username): try await alerts.removeAlert(room: room, username: username)
      case .addAlert(let username): try await alerts.addAlert(room: room, username: username, createdBy: entry.userID)
      }
    }
  }
}
