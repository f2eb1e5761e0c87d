import ChatBridge
import Foundation
import Logging

/// The relays whose pictures have yet to follow them, kept in the transport's state store under one key (the store
/// cannot list keys), by the relay's idempotency key: kept when the relay is sent, forgotten once its pictures went
/// out or were given up. What a stop or a crash left here is sent at the next start (`resumePendingPictures`).
/// A failure to store is logged and costs only that the pictures would not survive a restart.
actor MatrixPendingPictures {
  private let store: any TransportStateStore
  private let logger: Logger
  private var jobs: [String: MatrixPictureFollowUps.Job]?

  init(store: any TransportStateStore, logger: Logger) {
    self.store = store
    self.logger = logger
  }

  func keep(_ job: MatrixPictureFollowUps.Job) async {
    var current = await loaded()
    current[job.idempotencyKey] = job
    await save(current)
  }

  func forget(_ idempotencyKey: String) async {
    var current = await loaded()
    guard current.removeValue(forKey: idempotencyKey) != nil else { return }
    await save(current)
  }

  /// What is waiting, oldest relay first (its key's order is the outbox's for one room; across rooms any order will do).
  func all() async -> [MatrixPictureFollowUps.Job] {
    await loaded().values.sorted { $0.idempotencyKey < $1.idempotencyKey }
  }

  private func loaded() async -> [String: MatrixPictureFollowUps.Job] {
    if let jobs { return jobs }
    var read: [String: MatrixPictureFollowUps.Job] = [:]
    do {
      if let text = try await store.value(for: MatrixStateKey.pendingPictures) {
        read = try JSONDecoder().decode([String: MatrixPictureFollowUps.Job].self, from: Data(text.utf8))
      }
    } catch {
      // Written by this transport only; unreadable means an older format or a damaged row: those pictures stay links.
      logger.warning("pictures left waiting at the last stop could not be read", metadata: ["error": "\(error)"])
    }
    jobs = read
    return read
  }

  private func save(_ current: [String: MatrixPictureFollowUps.Job]) async {
    jobs = current
    do {
      let value = current.isEmpty ? nil : String(decoding: try JSONEncoder().encode(current), as: UTF8.self)
      try await store.setValue(value, for: MatrixStateKey.pendingPictures)
    } catch {
      logger.warning("pictures waiting to be sent could not be stored", metadata: ["error": "\(error)"])
    }
  }
}
