import ChatBridge
import Foundation
import Logging

/// How far a message of several lines got before the bot stopped: the lines the server echoed back (echo-message),
/// kept in the transport's state store by the outbox's idempotency key until the message is delivered. When the
/// outbox sends the message again after a crash, the lines already echoed are not said again, so a kill during a long
/// answer repeats at most the line it caught, not the answer. Kept as the lines themselves: the message is rendered
/// again, and a rendering that differs (another nick, another line budget) is sent whole rather than cut wrongly.
/// Without a store (tests, `check`) or without echo-message nothing is kept, and such a message is repeated whole.
actor IRCLineProgress {
  private let store: (any TransportStateStore)?
  private let logger: Logger
  private var echoed: [String: [String]] = [:]
  /// Keys with a row in the store (written here, or found there at a resend): only those are removed at delivery.
  private var stored: Set<String> = []
  /// Keys delivered lately: a progress report that arrives after its message was delivered is not kept.
  private var delivered: [String] = []

  init(store: (any TransportStateStore)?, logger: Logger) {
    self.store = store
    self.logger = logger
  }

  static func storeKey(_ key: String) -> String { "lines:\(key)" }

  /// The lines of the message under `key` that the server echoed before the bot stopped (none when it never did).
  func linesEchoed(key: String) async -> [String] {
    if let lines = echoed[key] { return lines }
    guard let store else { return [] }
    do {
      guard let text = try await store.value(for: Self.storeKey(key)) else { return [] }
      stored.insert(key)
      return try JSONDecoder().decode([String].self, from: Data(text.utf8))
    } catch {
      logger.warning("the lines a message got through before a stop could not be read", metadata: ["error": "\(error)"])
      return []
    }
  }

  /// The server echoed `lines` (the message's first lines, all of them so far).
  func echo(key: String, lines: [String]) async {
    guard let store, !delivered.contains(key), lines.count > (echoed[key]?.count ?? 0) else { return }
    echoed[key] = lines
    stored.insert(key)
    do {
      try await store.setValue(
        String(decoding: try JSONEncoder().encode(lines), as: UTF8.self), for: Self.storeKey(key))
    } catch {
      logger.warning("the lines a message got through could not be stored", metadata: ["error": "\(error)"])
    }
  }

  /// The message under `key` was delivered: its progress is no longer needed.
  func deliver(key: String) async {
    echoed[key] = nil
    delivered.append(key)
    if delivered.count > 256 { delivered.removeFirst(delivered.count - 256) }
    guard let store, stored.remove(key) != nil else { return }
    do {
      try await store.setValue(nil, for: Self.storeKey(key))
    } catch {
      logger.warning(
        "the lines a delivered message got through could not be forgotten", metadata: ["error": "\(error)"])
    }
  }
}
