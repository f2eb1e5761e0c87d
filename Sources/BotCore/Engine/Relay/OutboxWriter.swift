import BotStore
import ChatBridge
import Foundation

/// The outbox side of the engine: makes the `Relay` that turns forum content into outbox rows (or held items),
/// queues command answers, releases held items that are due, and wakes the dispatchers of the transports that got
/// rows. Owns the dispatchers' wake signals, one per configured transport.
package final class OutboxWriter: Sendable, EnginePart {
  /// Sends a command's answer (the answer's number for its key) straight out, past the outbox.
  package typealias DirectAnswer =
    @Sendable (_ reply: OutgoingMessage, _ to: IncomingMessage, _ answer: Int) async -> Void

  let context: EngineContext
  private let dispatchSignals: [String: WakeSignal]
  /// Where answers go when the outbox cannot take them (see `enqueueReply`): handed in at assembly by the app, which
  /// holds the transports; nil where nothing may answer past the outbox.
  private let answerOnFullDisk: DirectAnswer?
  /// The poison-message guard every dispatcher of the engine shares.
  let crashGuard: CrashGuard

  init(context: EngineContext, answerOnFullDisk: DirectAnswer? = nil) {
    self.context = context
    self.answerOnFullDisk = answerOnFullDisk
    self.dispatchSignals = context.transports.mapValues { _ in WakeSignal() }
    self.crashGuard = CrashGuard(
      database: context.database, now: context.now,
      previousRunCrashed: context.configuration.previousRunCrashed)
  }

  /// A relay reading the clock as `now`, for rows written in one transaction.
  func relay(now: Date, collector: RowCollector? = nil) -> Relay {
    Relay(composer: composer, transports: transports, configuration: configuration, now: now, collector: collector)
  }

  /// The signal the transport's dispatcher waits on.
  func dispatchSignal(for transport: String) -> WakeSignal? {
    dispatchSignals[transport]
  }

  /// Wakes the dispatchers of these transports (rows were queued).
  func wakeDispatchers<S: Sequence>(_ transportNames: S) where S.Element == String {
    for name in Set(transportNames) { dispatchSignals[name]?.signal() }
  }

  /// Releases held items that are due (quiet hours over, digest time reached). Returns rows queued.
  @discardableResult
  package func releaseHeld() async throws -> Int {
    let relay = relay(now: now())
    let outcome = try await database.write { tx in try relay.releaseHeld(in: tx) }
    wakeDispatchers(outcome.transports)
    EngineMetrics.rowsQueued(outcome.queued, kind: .digest)
    return outcome.queued
  }

  /// Queues a command's answer in the outbox, so it is retried (and counted when it fails) like a relayed post,
  /// and sent in order with the room's other messages. The key comes from the command message and the answer's
  /// number: the same command answered twice (a transport redelivering it) is queued once, and several answers to
  /// one message each get their own key.
  ///
  /// On a full disk the answer goes straight out through the closure the app handed in (`answerOnFullDisk`, its
  /// transport with a few quick retries instead of the outbox's): what can be answered without writing (help,
  /// status, list, and the sentence saying a change could not be saved) still is.
  package func enqueueReply(_ reply: OutgoingMessage, answering message: IncomingMessage, answer: Int = 1)
    async throws
  {
    let room = RoomRef(transport: message.transport, room: message.room)
    let key = OutboxKey.answer(room, id: message.messageID ?? UUID().uuidString, answer: answer)
    let payload = try RelayCoding.encode(reply)
    let createdAt = now()
    do {
      try await database.write { tx in
        var row = OutboxRecord(
          transport: room.transport, room: room.room, kind: .answer, payload: payload, idempotencyKey: key,
          createdAt: createdAt, reason: "answer to a command")
        try tx.enqueue(&row)
      }
    } catch  where BotStoreError.isStorageFull(error) {
      guard let answerOnFullDisk, transports[room.transport] != nil else { throw error }
      await answerOnFullDisk(reply, message, answer)
      return
    }
    wakeDispatchers([room.transport])
  }
}
