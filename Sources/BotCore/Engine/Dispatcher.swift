import ChatBridge
import BotStore
import Foundation
import Logging
import ServiceLifecycle

/// Drains one transport's outbox: oldest first per room with one row in flight per room, so a room sees posts in
/// order. A row is marked delivered only when `send` returns a receipt; retryable failures back off exponentially
/// (or as long as the service asked), `.permanent` fails the row with the reason, and after the configured number
/// of attempts a row is dead-lettered and counted. Rows are never deleted.
///
/// A crash after `send` but before the row is marked leaves it pending: the next run resends it with the same
/// idempotency key, which the transport uses to drop the duplicate.
package final class Dispatcher: Service, Sendable {
  package let transport: any ChatTransport
  let engine: BotEngine
  private let signal: WakeSignal
  let logger: Logger
  /// Longest sleep when nothing is due; rows queued meanwhile wake the dispatcher through its signal anyway.
  private let idleWait: Duration

  package init(
    engine: BotEngine, transport: any ChatTransport, idleWait: Duration = .seconds(60),
    logger: Logger = Logger(label: "awfulbot.dispatcher")
  ) {
    self.engine = engine
    self.transport = transport
    self.signal = engine.dispatchSignal(for: transport.name) ?? WakeSignal()
    self.idleWait = idleWait
    var logger = logger
    logger[metadataKey: "transport"] = "\(transport.name)"
    self.logger = logger
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
        for room in rooms { group.addTask { await self.drain(room: room) } }
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

  private func drain(room: String) async -> DrainReport {
    var report = DrainReport()
    let name = transport.name
    while !signal.isClosed && !Task.isCancelled {
      let head: OutboxRecord?
      do {
        head = try await engine.database.read { tx in try tx.headOfQueue(transport: name, room: room) }
      } catch {
        if !Self.isCancellation(error) {
          logger.error("could not read the outbox", metadata: ["room": "\(room)", "error": "\(error)"])
        }
        return report
      }
      guard let head, let id = head.id else { return report }
      if let due = head.nextAttemptAt, due > engine.now() {
        report.nextRetry = due
        return report
      }
      guard await send(head, id: id, to: room, report: &report) else { return report }
      if report.retried > 0 { return report }
    }
    return report
  }

  /// Sends one row and records the outcome. Returns false when the row's fate is unknown (cancelled mid-send) or
  /// could not be recorded, so the room stops for this pass and the row is retried as is.
  private func send(_ row: OutboxRecord, id: Int64, to room: String, report: inout DrainReport) async -> Bool {
    var message: OutgoingMessage
    do {
      message = try RelayCoding.decode(OutgoingMessage.self, from: row.payload)
    } catch {
      return await record(id: id, room: room, report: &report) { tx, now in
        try tx.markFailed(id: id, error: "stored message is unreadable: \(error)", at: now)
      } count: {
        $0.failed += 1
      }
    }
    if row.kind == .summary && transport.capabilities.edits {
      guard let prepared = await summaryMessage(for: row, id: id, room: room, stored: message) else { return false }
      message = prepared
    }

    let outcome: Result<DeliveryReceipt, any Error>
    do {
      outcome = .success(try await transport.send(message, to: room, idempotencyKey: row.idempotencyKey))
    } catch {
      outcome = .failure(error)
    }

    switch outcome {
    case .success(let receipt):
      EngineMetrics.delivery(transport: transport.name, outcome: "delivered")
      return await record(id: id, room: room, report: &report) { tx, now in
        try tx.markDelivered(id: id, receipt: receipt.id, at: now)
      } count: {
        $0.delivered += 1
      }
    case .failure(let error as ChatSendError):
      switch error {
      case .permanent(let reason):
        EngineMetrics.delivery(transport: transport.name, outcome: "failed")
        logger.warning(
          "message refused for good", metadata: ["room": "\(room)", "row": "\(id)", "reason": "\(reason)"])
        return await record(id: id, room: room, report: &report) { tx, now in
          try tx.markFailed(id: id, error: reason, at: now)
        } count: {
          $0.failed += 1
        }
      case .retryable(let reason, let after):
        return await retry(row, id: id, room: room, reason: reason, after: after, report: &report)
      }
    case .failure(let error) where error is CancellationError || Task.isCancelled:
      // Unknown whether the service got it: leave the row pending; the resend carries the same key.
      return false
    case .failure(let error):
      return await retry(row, id: id, room: room, reason: "\(error)", after: nil, report: &report)
    }
  }

  private func retry(
    _ row: OutboxRecord, id: Int64, room: String, reason: String, after: Duration?, report: inout DrainReport
  ) async -> Bool {
    let configuration = engine.configuration
    let attempts = row.attempts + 1
    if attempts >= configuration.maximumDeliveryAttempts {
      EngineMetrics.delivery(transport: transport.name, outcome: "dead")
      EngineMetrics.deadLetter(transport: transport.name)
      logger.error(
        "message dead-lettered",
        metadata: ["room": "\(room)", "row": "\(id)", "attempts": "\(attempts)", "reason": "\(reason)"])
      return await record(id: id, room: room, report: &report) { tx, now in
        try tx.markDead(id: id, error: reason, at: now)
      } count: {
        $0.deadLettered += 1
      }
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
    let recorded = await record(id: id, room: room, report: &report) { tx, _ in
      try tx.markRetry(id: id, error: reason, nextAttemptAt: next)
    } count: {
      $0.retried += 1
    }
    report.nextRetry = [report.nextRetry, next].compactMap { $0 }.min()
    return recorded
  }

  private func record(
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
      logger.error("could not record a delivery", metadata: ["room": "\(room)", "row": "\(id)", "error": "\(error)"])
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
