import BotStore
import ChatBridge
import Foundation
import Logging
import ServiceLifecycle

/// Drains one transport's outbox: rooms concurrently, each through its own `RoomSendQueue` (oldest first, one row in
/// flight per room, so a room sees posts in order). A row is marked delivered only when `send` returns a receipt;
/// retryable failures back off exponentially (or as long as the service asked), `.permanent` fails the row with the
/// reason, and after the configured number of attempts a row is dead-lettered and counted. Rows are never deleted.
///
/// A crash after `send` but before the row is marked leaves it pending: the next run resends it with the same
/// idempotency key, which the transport uses to drop the duplicate. A row the process died with twice is parked
/// instead (the poison-message guard, see `CrashGuard`). A mark that fails while the process lives (a
/// full disk) is written again, the row not sent again (see `DeliveryRecorder`).
package final class Dispatcher: Service, Sendable {
  package let transport: any ChatTransport
  let engine: BotEngine
  private let signal: WakeSignal
  /// Marks delivered rows of every room, several to a write (see `DeliveryRecorder`).
  let recorder: DeliveryRecorder
  let logger: Logger
  /// Longest sleep when nothing is due; rows queued meanwhile wake the dispatcher through its signal anyway.
  private let idleWait: Duration

  package init(
    engine: BotEngine, transport: any ChatTransport, idleWait: Duration = .seconds(60),
    logger: Logger = Logger(label: "awfulbot.dispatcher")
  ) {
    self.engine = engine
    self.transport = transport
    self.signal = engine.outbox.dispatchSignal(for: transport.name) ?? WakeSignal()
    self.recorder = DeliveryRecorder(database: engine.database)
    self.idleWait = idleWait
    var logger = logger
    logger[metadataKey: "transport"] = "\(transport.name)"
    self.logger = logger
    if SendFault.crashOnSend != nil {
      logger.warning(
        "a test-only fault is set: the bot stops itself when it sends a message carrying its text",
        metadata: ["variable": "\(SendFault.variable)"])
    }
  }

  /// Runs until graceful shutdown; the row in hand is finished first (sends are not cancelled by shutdown).
  package func run() async throws {
    await withGracefulShutdownHandler {
      while !signal.isClosed && !Task.isCancelled {
        let report = await drain()
        var wait = idleWait
        if let next = report.nextRetry {
          wait = min(wait, .seconds(max(next.timeIntervalSince(engine.now()), 0.01)))
        }
        await signal.wait(timeout: wait)
      }
    } onGracefulShutdown: {
      self.signal.close()
    }
  }

  /// Sends every row that is due, room by room in parallel, and returns when every room is empty or waiting for
  /// a retry. Tests call this directly instead of running the service.
  @discardableResult
  package func drain() async -> DrainReport {
    var total = DrainReport()
    // The rows the last process died with are counted (and the twice-fatal parked) before anything is sent.
    guard await crashGuard.recovered(logger: logger) else {
      total.nextRetry = engine.now().addingTimeInterval(engine.configuration.deliveryBackoffBase.timeInterval)
      return total
    }
    while !signal.isClosed {
      let rooms: [String]
      do {
        let name = transport.name
        rooms = try await engine.database.read { tx in try tx.roomsWithPendingRows(transport: name) }
      } catch {
        // Shutdown cancels the read: that is the end of this pass, not a store failure.
        if !Self.isCancellation(error) { logger.error("could not read the outbox", metadata: ["error": "\(error)"]) }
        break
      }
      if rooms.isEmpty { break }
      let round = await withTaskGroup(of: DrainReport.self) { group in
        for room in rooms { group.addTask { await RoomSendQueue(dispatcher: self, room: room).drain() } }
        var round = DrainReport()
        for await report in group { round.merge(report) }
        return round
      }
      total.merge(round)
      // Nothing moved: every room waits for a retry (or the store failed). Rows for new rooms wake us again.
      if round.delivered + round.failed + round.deadLettered + round.retried == 0 { break }
    }
    await recordDepth()
    return total
  }

  /// True once graceful shutdown began: room queues finish the row in hand and stop.
  var isClosed: Bool { signal.isClosed }

  /// A failed send the service may accept later: the row waits for its next attempt (the room stops for this pass),
  /// or, out of attempts, is dead-lettered (the room goes on).
  func retry(
    _ row: OutboxRecord, id: Int64, room: String, reason: String, after: Duration?, report: inout DrainReport
  ) async -> RowOutcome {
    let configuration = engine.configuration
    let attempts = row.attempts + 1
    if attempts >= configuration.maximumDeliveryAttempts {
      EngineMetrics.delivery(transport: transport.name, outcome: "dead")
      EngineMetrics.deadLetter(transport: transport.name)
      logger.error(
        "message dead-lettered",
        metadata: ["room": "\(room)", "row": "\(id)", "attempts": "\(attempts)", "reason": "\(reason)"])
      let recorded = await record(id: id, room: room, report: &report) { tx, now in
        try tx.markDead(id: id, error: reason, at: now)
      } count: {
        $0.deadLettered += 1
      }
      return recorded ? .settled : .stop
    }
    EngineMetrics.delivery(transport: transport.name, outcome: "retry")
    let delay =
      after
      ?? Backoff.jittered(
        Backoff.delay(
          attempt: attempts, base: configuration.deliveryBackoffBase, maximum: configuration.maximumDeliveryBackoff),
        by: configuration.jitter)
    let next = engine.now().addingTimeInterval(delay.timeInterval)
    logger.info(
      "send failed, will retry",
      metadata: ["room": "\(room)", "row": "\(id)", "attempt": "\(attempts)", "reason": "\(reason)"])
    await record(id: id, room: room, report: &report) { tx, _ in
      try tx.markRetry(id: id, error: reason, nextAttemptAt: next)
    } count: {
      $0.retried += 1
    }
    report.nextRetry = [report.nextRetry, next].compactMap { $0 }.min()
    return .stop
  }

  /// The room's reader is away (`ChatSendError.unreachable`): the row waits, its attempts untouched, so a message
  /// for someone offline for a day is not dead-lettered after eight tries.
  func wait(id: Int64, room: String, reason: String, after: Duration, report: inout DrainReport) async -> RowOutcome {
    let next = engine.now().addingTimeInterval(after.timeInterval)
    logger.info(
      "room's reader unreachable, waiting", metadata: ["room": "\(room)", "row": "\(id)", "reason": "\(reason)"])
    await record(id: id, room: room, report: &report) { tx, _ in
      try tx.markWaiting(id: id, reason: reason, nextAttemptAt: next)
    } count: { _ in
    }
    report.nextRetry = [report.nextRetry, next].compactMap { $0 }.min()
    return .stop
  }

  @discardableResult
  func record(
    id: Int64, room: String, report: inout DrainReport,
    _ change: @escaping @Sendable (StoreTransaction, Date) throws -> Void, count: (inout DrainReport) -> Void
  ) async -> Bool {
    let now = engine.now()
    let database = engine.database
    do {
      // The send happened: record it even when this task is being cancelled, in a task that does not inherit the
      // cancellation, so shutdown finishes the row in hand instead of leaving it to be resent.
      try await Task { try await database.write { tx in try change(tx, now) } }.value
      count(&report)
      return true
    } catch {
      logger.log(
        level: BotStoreError.isStorageFull(error) ? .debug : .error, "could not record a delivery",
        metadata: ["room": "\(room)", "row": "\(id)", "error": "\(error)"])
      return false
    }
  }

  /// A cancelled task's store call fails with `CancellationError` (or a wrapped cancellation): not worth a log line.
  static func isCancellation(_ error: any Error) -> Bool {
    error is CancellationError || Task.isCancelled
  }

  private func recordDepth() async {
    let name = transport.name
    if let counts = try? await engine.database.read({ tx in try tx.outboxCounts(transport: name) }) {
      EngineMetrics.outboxDepth(counts.pending, transport: name)
    }
  }
}
