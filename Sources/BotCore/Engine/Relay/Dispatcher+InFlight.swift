import BotStore
import Foundation

/// The dispatcher's side of the poison-message guard (see `CrashGuard`): the marks that say a row is in hand.
extension Dispatcher {
  var crashGuard: CrashGuard { engine.outbox.crashGuard }

  /// Marks row `id` in flight and returns once that is committed; false when the store refused (the row is then not
  /// sent: without its mark a death in its send could not be counted).
  func markInFlight(_ id: Int64, room: String) async -> Bool {
    switch await recorder.markInFlight(id, at: engine.now()) {
    case .success: return true
    case .failure(let error):
      logger.log(
        level: BotStoreError.isStorageFull(error) ? .debug : .error, "could not mark a message in flight",
        metadata: ["room": "\(room)", "row": "\(id)", "error": "\(error)"])
      return false
    }
  }

  /// Clears the in-flight mark of rows whose send ended without an outcome to record: cancelled by shutdown (or a
  /// hang that shutdown cancelled), or prepared and not sent. Neither is a death. Written even while the task is
  /// being cancelled, in a task that does not inherit the cancellation, and awaited, so shutdown waits for it.
  func clearInFlight(_ ids: [Int64], room: String) async {
    guard !ids.isEmpty else { return }
    let database = engine.database
    do {
      try await Task { try await database.write { tx in try tx.clearInFlight(ids: ids) } }.value
    } catch {
      logger.log(
        level: BotStoreError.isStorageFull(error) ? .debug : .error, "could not clear a message's in-flight mark",
        metadata: ["room": "\(room)", "rows": "\(ids)", "error": "\(error)"])
    }
  }
}
