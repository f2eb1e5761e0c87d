import BotStore
import Foundation
import Synchronization

/// Marks delivered outbox rows in the store, many to a transaction: acknowledgements that arrive while a write is
/// under way (other rooms', or the next row of the same room) are committed together by the next one. One write per
/// delivered row was a SQLite commit (and a sync of the journal) per event; at a busy homeserver's pace that is most
/// of what the bot itself spends.
///
/// A caller learns whether its mark landed; a failed write fails every mark in it. Those rows stay pending in the
/// store, but the service has them: the recorder keeps their marks (`unlanded`) and the room queue writes the mark
/// again instead of sending the row twice. Only a restart before the mark lands resends such a row, under the same
/// idempotency key.
///
/// The in-flight marks of the poison-message guard (see `CrashGuard`) go the same way, so a row's mark and the
/// previous row's delivery share a commit.
actor DeliveryRecorder {
  struct Delivery: Sendable {
    var id: Int64
    var receipt: String
    var at: Date
  }

  private enum Mark: Sendable {
    case delivered(Delivery)
    case inFlight(id: Int64, at: Date)
  }

  private let database: BotDatabase
  private var queued: [(mark: Mark, done: CheckedContinuation<Result<Void, any Error>, Never>)] = []
  private var writing = false
  /// Deliveries whose mark failed (a full disk), by row id, until a later mark lands. Read without awaiting the actor
  /// on every row the room queues take, so it sits behind its own lock.
  private nonisolated let failedMarks = Mutex<[Int64: Delivery]>([:])

  init(database: BotDatabase) {
    self.database = database
  }

  /// The delivery of row `id` when the service accepted the row but its mark has not landed yet.
  nonisolated func unlanded(_ id: Int64) -> Delivery? {
    failedMarks.withLock { $0[id] }
  }

  /// Keeps the delivery of a row the service accepted whose mark is not written now (the room stopped when the mark
  /// before it failed), so the next pass marks it instead of sending it again.
  nonisolated func keepUnlanded(_ delivery: Delivery) {
    failedMarks.withLock { $0[delivery.id] = delivery }
  }

  /// Returns once the row is marked delivered, or with the store's error when the write failed.
  func markDelivered(_ delivery: Delivery) async -> Result<Void, any Error> {
    await write(.delivered(delivery))
  }

  /// Returns once the pending row `id` is marked in flight (committed), or with the store's error.
  func markInFlight(_ id: Int64, at date: Date) async -> Result<Void, any Error> {
    await write(.inFlight(id: id, at: date))
  }

  private func write(_ mark: Mark) async -> Result<Void, any Error> {
    await withCheckedContinuation { continuation in
      queued.append((mark, continuation))
      if !writing {
        writing = true
        // Its own task, not the caller's: the send happened, so the mark is written even when the caller is being
        // cancelled (shutdown), and a caller never waits for writes it did not ask for.
        Task { await self.writeQueued() }
      }
    }
  }

  private func writeQueued() async {
    while !queued.isEmpty {
      let batch = queued
      queued.removeAll()
      let marks = batch.map(\.mark)
      let deliveries = marks.compactMap { mark -> Delivery? in
        if case .delivered(let delivery) = mark { delivery } else { nil }
      }
      let written: Result<Void, any Error>
      do {
        try await database.write { tx in
          for mark in marks {
            switch mark {
            case .delivered(let delivery):
              try tx.markDelivered(id: delivery.id, receipt: delivery.receipt, at: delivery.at)
            case .inFlight(let id, let date):
              try tx.markInFlight(ids: [id], at: date)
            }
          }
        }
        written = .success(())
        failedMarks.withLock { marks in
          for delivery in deliveries { marks[delivery.id] = nil }
        }
      } catch {
        written = .failure(error)
        failedMarks.withLock { marks in
          for delivery in deliveries { marks[delivery.id] = delivery }
        }
      }
      for item in batch { item.done.resume(returning: written) }
    }
    writing = false
  }
}
