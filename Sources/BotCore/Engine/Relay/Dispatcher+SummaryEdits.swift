import BotStore
import ChatBridge
import Foundation

extension Dispatcher {
  /// The message to send for a summary row on a transport with edits: an edit of the burst's first message with
  /// the running count when the room's previous row is a delivered summary of the same thread within the window,
  /// else `stored` (the row's own message). Nil when the store failed (the room stops for this pass, row retried).
  ///
  /// Decided here rather than when the row is queued because only now is the previous row's fate known: rows of a
  /// room go out in order, so every earlier row is delivered, failed or dead, and a delivered one has its receipt.
  /// An edit is written into the row before it is sent, so a resend after a crash repeats the same edit under the
  /// same idempotency key instead of counting again. A "new message" decision is not stored: deciding again later
  /// sees the same previous row and a later clock, which can only turn an edit into a new message, never the reverse.
  func summaryMessage(for row: OutboxRecord, id: Int64, room: String, stored: OutgoingMessage) async
    -> OutgoingMessage?
  {
    // An old row without a burst, a burst that cannot be read, or an edit already decided: send as stored.
    guard let burst = (try? RelayCoding.decode(OutboxPayload.self, from: row.payload))?.summaryBurst,
      burst.edit == nil
    else { return stored }
    let name = transport.name
    let window = engine.configuration.summaryEditWindow.timeInterval
    let now = engine.now()
    do {
      return try await engine.database.write { tx -> OutgoingMessage in
        guard let previous = try tx.outboxRow(before: id, transport: name, room: room),
          previous.kind == .summary, previous.state == .delivered, let receipt = previous.receipt,
          let previousBurst = (try? RelayCoding.decode(OutboxPayload.self, from: previous.payload))?.summaryBurst,
          let edit = burst.edit(
            following: previousBurst, receipt: receipt, deliveredAt: previous.deliveredAt ?? previous.createdAt,
            now: now, window: window)
        else { return stored }

        var edited = burst
        edited.edit = edit
        // The edit says the running total; everything else (links, latest author) is this row's own.
        var message = stored
        if case .summary(var summary) = stored.content {
          summary.count = edit.total
          summary.authors = edit.authors
          message.content = .summary(summary)
        }
        message.replaces = edit.original
        try tx.updatePendingPayload(
          id: id, payload: try RelayCoding.encode(OutboxPayload(message: message, summaryBurst: edited)))
        return message
      }
    } catch {
      logger.error(
        "could not prepare a summary edit", metadata: ["room": "\(room)", "row": "\(id)", "error": "\(error)"])
      return nil
    }
  }
}
