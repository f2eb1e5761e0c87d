import BotStore
import ChatBridge
import Foundation

/// What became of one attempt to send a row, for its room's queue.
enum RowOutcome: Sendable {
  /// The service accepted the row; it is not marked delivered yet (the room queue does that, see `DeliveryRecorder`).
  case accepted(DeliveryReceipt)
  /// The row's fate is recorded (refused for good, or dead-lettered): the room goes on with its next row.
  case settled
  /// The room stops for this pass: the row waits for a retry, its fate is unknown (cancelled mid-send), or the store
  /// could not record what happened. The row is tried again as it is.
  case stop
}

extension Dispatcher {
  /// Sends one row: decodes it, turns a summary into an edit where that applies, hands it to the transport and
  /// records every outcome but acceptance. Summary rows need the room's earlier rows marked (see `summaryMessage`):
  /// the room queue settles its acknowledgements before it asks for one. The row is marked in flight, committed,
  /// before this is called (see `RoomSendQueue`); every recorded outcome clears the mark.
  ///
  /// - Parameter decoded: the row's message when `prepare` decoded it already.
  func attempt(
    _ row: OutboxRecord, id: Int64, to room: String, decoded: OutgoingMessage? = nil, report: inout DrainReport
  ) async -> RowOutcome {
    var message: OutgoingMessage
    do {
      message = try decoded ?? RelayCoding.decode(OutgoingMessage.self, from: row.payload)
    } catch {
      let recorded = await record(id: id, room: room, report: &report) { tx, now in
        try tx.markFailed(id: id, error: "stored message is unreadable: \(error)", at: now)
      } count: {
        $0.failed += 1
      }
      return recorded ? .settled : .stop
    }
    // A message `prepare` decoded is presented already; only one decoded here is read against the room's settings.
    if decoded == nil { message = await presented(message, from: row) }
    if needsEarlierRowsMarked(row) {
      guard let prepared = await summaryMessage(for: row, id: id, room: room, stored: message) else { return .stop }
      message = prepared
    }

    SendFault.check(row)
    let outcome: Result<DeliveryReceipt, any Error>
    do {
      if row.kind == .redaction {
        outcome = .success(try await redact(row, in: room))
      } else {
        outcome = .success(try await transport.send(message, to: room, idempotencyKey: row.idempotencyKey))
      }
    } catch {
      outcome = .failure(error)
    }

    switch outcome {
    case .success(let receipt):
      EngineMetrics.delivery(transport: transport.name, outcome: "delivered")
      EngineMetrics.roomDelivery(
        transport: transport.name, room: engine.metricRoomLabels.label(transport: transport.name, room: row.room),
        kind: row.kind.rawValue)
      return .accepted(receipt)
    case .failure(let error as ChatSendError):
      switch error {
      case .permanent(let reason):
        EngineMetrics.delivery(transport: transport.name, outcome: "failed")
        logger.warning(
          "message refused for good", metadata: ["room": "\(room)", "row": "\(id)", "reason": "\(reason)"])
        let recorded = await record(id: id, room: room, report: &report) { tx, now in
          try tx.markFailed(id: id, error: reason, at: now)
        } count: {
          $0.failed += 1
        }
        return recorded ? .settled : .stop
      case .retryable(let reason, let after):
        return await retry(row, id: id, room: room, reason: reason, after: after, report: &report)
      case .unreachable(let reason, let after):
        return await wait(id: id, room: room, reason: reason, after: after, report: &report)
      }
    case .failure(let error) where error is CancellationError || Task.isCancelled:
      // Unknown whether the service got it: leave the row pending; the resend carries the same key. The room queue
      // clears its in-flight mark: a send shutdown cancelled is no death.
      return .stop
    case .failure(let error):
      return await retry(row, id: id, room: room, reason: "\(error)", after: nil, report: &report)
    }
  }

  /// Takes back the relay a `redaction` row names (a post deleted on the forum). The receipt is the relay's own: a
  /// removal has nothing of its own to answer or edit later.
  private func redact(_ row: OutboxRecord, in room: String) async throws -> DeliveryReceipt {
    guard let target = try RelayCoding.decode(OutboxPayload.self, from: row.payload).redacts else {
      throw ChatSendError.permanent(reason: "the removal names no message")
    }
    try await transport.redact(target, in: room, reason: Relay.deletedReason)
    return DeliveryReceipt(id: target)
  }

  /// Decodes a row that is to be sent next, marks it in flight and lets the transport prepare it (see
  /// `ChatTransport.prepare`) while the row before it is in flight. Not a summary that may become an edit (its message
  /// depends on that send), nor a row that cannot be decoded (`attempt` records why), nor one whose mark the store
  /// refused: the transport reads a row's content only while the row is marked (see `CrashGuard`).
  func prepare(_ row: OutboxRecord, to room: String) async -> OutgoingMessage? {
    guard !needsEarlierRowsMarked(row), let id = row.id,
      let stored = try? RelayCoding.decode(OutgoingMessage.self, from: row.payload),
      await markInFlight(id, room: room)
    else { return nil }
    let message = await presented(stored, from: row)
    await transport.prepare(message, to: room, idempotencyKey: row.idempotencyKey)
    return message
  }

  /// The message as its room shows it now: how the room shows a relay's pictures is read from its settings at the
  /// moment of sending, so a change applies to what waits in the queue too. A room whose settings cannot be read
  /// shows them as the default does (inline): the send is not held up for a setting.
  func presented(_ message: OutgoingMessage, from row: OutboxRecord) async -> OutgoingMessage {
    guard transport.capabilities.pictures, case .post = message.content else { return message }
    var message = message
    let room = RoomRef(transport: row.transport, room: row.room)
    message.pictures = (try? await engine.roomSettings.settings(room: room))?.pictures
    return message
  }

  /// A summary on a transport with edits may become an edit of the previous row's message, decided from that row's
  /// stored state, which must be written before.
  func needsEarlierRowsMarked(_ row: OutboxRecord) -> Bool {
    row.kind == .summary && transport.capabilities.edits
  }
}
