import BotStore
import Foundation

/// Marks delivered outbox rows in the store, many to a transaction: acknowledgements that arrive while a write is
/// under way (other rooms', or the next row of the same room) are committed together by the next one. One write per
/// delivered row was a SQLite commit (and a sync of the journal) per event; at a busy homeserver's pace that is most
/// of what the bot itself spends.
///
/// A caller learns whether its mark landed; a failed write fails every mark in it, and those rows stay pending, to be
/// resent under the same idempotency key.
actor DeliveryRecorder {
  struct Delivery: Sendable {
    var id: Int64
    var receipt: String
    var at: Date
  }

  private let database: BotDatabase
  private var queued: [(delivery: Delivery, done: CheckedContinuation<Result<Void, any Error>, Never>)] = []
  private var writing = false

  init(database: BotDatabase) {
    self.database = database
  }

  /// Returns once the row is marked delivered, or with the store's error when the write failed.
  func markDelivered(_ delivery: Delivery) async -> Result<Void, any Error> {
    await withCheckedContinuation { continuation in
      queued.append((delivery, continuation))
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
      let deliveries = batch.map(\.delivery)
      let written: Result<Void, any Error>
      do {
        try await database.write { tx in
          for delivery in deliveries {
            try tx.markDelivered(id: delivery.id, receipt: delivery.receipt, at: delivery.at)
          }
        }
        written = .success(())
      } catch {
        written = .failure(error)
      }
      for item in batch { item.done.resume(returning: written) }
    }
    writing = false
  }
}
