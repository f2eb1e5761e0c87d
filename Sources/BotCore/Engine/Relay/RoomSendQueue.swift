import BotStore
import ChatBridge
import Foundation

/// One room's part of a dispatcher pass: its pending rows oldest first, one in flight at a time, so the room sees
/// them in the order they were queued. Rooms run side by side, one queue each (see `Dispatcher.drain`).
///
/// Three things keep the bot's own work off the path from one event to the next without loosening the outbox's
/// guarantee:
/// - rows are read in batches, not one read per row;
/// - the next row is marked in flight, decoded and rendered while the current one is being sent
///   (`Dispatcher.prepare`);
/// - the mark of a delivered row is written while the next row is being sent (through `DeliveryRecorder`, which
///   commits marks of several rows and rooms together). It must have landed before the next mark is queued, so marks
///   land in order, and a room stops when one fails.
/// A row is still marked delivered only after the service accepted it; a crash before the mark leaves it pending,
/// and the resend carries the same idempotency key (the Matrix transaction id), which the service drops.
///
/// The poison-message guard (see `CrashGuard`): no transport sees a row before its in-flight mark is committed; a row
/// the queue stops at without an outcome (cancelled, or prepared and not sent) loses its mark; and a row the process
/// died with before is sent alone (`sendAlone`), its delivery marked before anything else goes out.
struct RoomSendQueue {
  let dispatcher: Dispatcher
  let room: String
  /// Rows read per store round trip.
  static let batchSize = 32

  /// Sends until the room is empty, a row waits for a retry, or something stops the pass; returns what happened.
  ///
  /// The queue holds the `SendGate` shared while it has rows marked in flight (the one being sent, the one prepared,
  /// a delivery whose mark has not landed). When a suspect waits to go alone it lets go between two rows, with none
  /// of them left marked, so nothing of this room is in flight beside the suspect.
  func drain() async -> DrainReport {
    let gate = dispatcher.crashGuard.gate
    return await withTaskGroup(of: Bool.self) { marks in
      var report = DrainReport()
      // The row whose mark is being written (at most one), and the last row taken from the store.
      var marking = false
      var lastRead: Int64?
      // The next row, marked in flight, decoded and prepared by the transport while the one before it was sent.
      var prepared: (id: Int64, message: OutgoingMessage)?
      // Whether this queue holds the gate (shared).
      var holding = false
      reading: while !dispatcher.isClosed && !Task.isCancelled {
        guard let batch = await read(after: lastRead), !batch.isEmpty else { break }
        for (index, row) in batch.enumerated() {
          guard !dispatcher.isClosed && !Task.isCancelled, let id = row.id else { break reading }
          lastRead = id
          if let delivery = dispatcher.recorder.unlanded(id) {
            // The service has this row already; only its mark failed (a full disk). Write the mark again, never the
            // message: on IRC a second send would show the post twice.
            if prepared?.id == id { prepared = nil }
            if marking {
              marking = false
              guard await settle(&marks, report: &report) else { break reading }
            }
            marks.addTask { await mark(delivery) }
            marking = true
            continue
          }
          if let due = retryTime(of: row) {
            report.nextRetry = due
            break reading
          }
          let suspect = row.crashes > 0
          if suspect || (holding && gate.suspectWaiting) {
            // Let go with nothing of this room left in flight: the earlier delivery marked, no row prepared ahead.
            if marking {
              marking = false
              guard await settle(&marks, report: &report) else { break reading }
            }
            if let ahead = prepared {
              await dispatcher.clearInFlight([ahead.id], room: room)
              prepared = nil
            }
            if holding {
              gate.leave(exclusive: false)
              holding = false
            }
          }
          if suspect {
            // The process died with this row in hand before: it goes alone.
            guard await sendAlone(row, id: id, report: &report) else { break reading }
            continue
          }
          if marking && dispatcher.needsEarlierRowsMarked(row) {
            marking = false
            guard await settle(&marks, report: &report) else { break reading }
          }
          if !holding {
            await gate.enter(exclusive: false)
            holding = true
            // The wait may have lasted until shutdown.
            guard !dispatcher.isClosed && !Task.isCancelled else { break reading }
          }
          let isPrepared = prepared?.id == id
          let decoded = isPrepared ? prepared?.message : nil
          prepared = nil
          if !isPrepared, !(await dispatcher.markInFlight(id, room: room)) {
            retryAfterStoreFailure(&report)
            break reading
          }
          // No row is prepared (and so marked) ahead of a suspect, nor while one waits to go alone.
          let next = index + 1 < batch.count && !gate.suspectWaiting ? batch[index + 1] : nil
          async let upcoming = prepare(next)
          let outcome = await dispatcher.attempt(row, id: id, to: room, decoded: decoded, report: &report)
          prepared = await upcoming
          if case .stop = outcome { await dispatcher.clearInFlight([id], room: room) }
          // The previous row's mark was written during this send; it lands before this row's is queued.
          if marking {
            marking = false
            guard await settle(&marks, report: &report) else {
              // The service has this row too: its mark waits for the next pass with the one that failed.
              if case .accepted(let receipt) = outcome {
                dispatcher.recorder.keepUnlanded(
                  DeliveryRecorder.Delivery(id: id, receipt: receipt.id, at: dispatcher.engine.now()))
              }
              break reading
            }
          }
          switch outcome {
          case .accepted(let receipt):
            let delivery = DeliveryRecorder.Delivery(id: id, receipt: receipt.id, at: dispatcher.engine.now())
            marks.addTask { await mark(delivery) }
            marking = true
          case .settled:
            continue
          case .stop:
            break reading
          }
        }
      }
      if marking { _ = await settle(&marks, report: &report) }
      // Prepared, so marked in flight, but the room stopped before sending it.
      if let prepared { await dispatcher.clearInFlight([prepared.id], room: room) }
      if holding { gate.leave(exclusive: false) }
      return report
    }
  }

  /// Sends a row the process died with before, with no other row in flight in any room or transport (`SendGate`),
  /// and marks its delivery before the others go on: if the process dies now, the death is this row's own. True when
  /// the room may go on.
  private func sendAlone(_ row: OutboxRecord, id: Int64, report: inout DrainReport) async -> Bool {
    let gate = dispatcher.crashGuard.gate
    await gate.enter(exclusive: true)
    defer { gate.leave(exclusive: true) }
    guard !dispatcher.isClosed && !Task.isCancelled else { return false }
    guard await dispatcher.markInFlight(id, room: room) else {
      retryAfterStoreFailure(&report)
      return false
    }
    dispatcher.logger.info(
      "sending alone a message that was in flight when the bot stopped",
      metadata: ["room": "\(room)", "row": "\(id)", "crashes": "\(row.crashes)"])
    switch await dispatcher.attempt(row, id: id, to: room, report: &report) {
    case .accepted(let receipt):
      let delivery = DeliveryRecorder.Delivery(id: id, receipt: receipt.id, at: dispatcher.engine.now())
      if await mark(delivery) {
        report.delivered += 1
        return true
      }
      retryAfterStoreFailure(&report)
      return false
    case .settled:
      return true
    case .stop:
      await dispatcher.clearInFlight([id], room: room)
      return false
    }
  }

  /// The next row, marked in flight, decoded and handed to the transport to render (see `Dispatcher.prepare`); not
  /// one that waits for a retry, nor one the process died with (it goes alone).
  private func prepare(_ row: OutboxRecord?) async -> (id: Int64, message: OutgoingMessage)? {
    guard let row, let id = row.id, row.crashes == 0, retryTime(of: row) == nil,
      dispatcher.recorder.unlanded(id) == nil, let message = await dispatcher.prepare(row, to: room)
    else { return nil }
    return (id, message)
  }

  /// The store refused a write: the room tries again after the delivery backoff rather than the idle wait.
  private func retryAfterStoreFailure(_ report: inout DrainReport) {
    let again = dispatcher.engine.now().addingTimeInterval(
      dispatcher.engine.configuration.deliveryBackoffBase.timeInterval)
    report.nextRetry = [report.nextRetry, again].compactMap { $0 }.min()
  }

  /// When `row` waits for a retry, the time it is due; nil when it may go now.
  private func retryTime(of row: OutboxRecord) -> Date? {
    guard let due = row.nextAttemptAt, due > dispatcher.engine.now() else { return nil }
    return due
  }

  /// Writes a delivered row's mark; true when it landed.
  private func mark(_ delivery: DeliveryRecorder.Delivery) async -> Bool {
    switch await dispatcher.recorder.markDelivered(delivery) {
    case .success: return true
    case .failure(let error):
      // A full disk was said once when it began (see `StorageLog`); a line per row would only repeat it.
      dispatcher.logger.log(
        level: BotStoreError.isStorageFull(error) ? .debug : .error, "could not record a delivery",
        metadata: ["room": "\(room)", "row": "\(delivery.id)", "error": "\(error)"])
      return false
    }
  }

  /// Waits for the mark in flight; true when it landed (and is counted). A mark that did not land is written again
  /// at the next pass, which comes after the delivery backoff rather than the idle wait.
  private func settle(_ marks: inout TaskGroup<Bool>, report: inout DrainReport) async -> Bool {
    guard let landed = await marks.next() else { return true }
    if landed {
      report.delivered += 1
    } else {
      retryAfterStoreFailure(&report)
    }
    return landed
  }

  private func read(after: Int64?) async -> [OutboxRecord]? {
    let name = dispatcher.transport.name
    let room = room
    do {
      return try await dispatcher.engine.database.read { tx in
        try tx.pendingRows(transport: name, room: room, after: after, limit: Self.batchSize)
      }
    } catch {
      if !Dispatcher.isCancellation(error) {
        dispatcher.logger.error("could not read the outbox", metadata: ["room": "\(room)", "error": "\(error)"])
      }
      return nil
    }
  }
}
