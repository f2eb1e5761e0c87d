import Foundation
import ServiceLifecycle

/// A chat service. Running it (`run()`) connects and keeps it connected; everything it has to tell the engine
/// (messages, the bot's own membership changes, connection state) arrives on `events`, so nothing outside the
/// transport needs to know its concrete type.
package protocol ChatTransport: Service {
  /// Unique name of this connection in the config (`matrix`, `irc-libera`, `console`).
  var name: String { get }
  var capabilities: ChatCapabilities { get }
  /// The transport's events, in the order they happened. One consumer (the app's event service).
  var events: AsyncStream<ChatEvent> { get }
  /// Renders `message` for this service and sends it. Must be idempotent per `idempotencyKey` where the service
  /// allows (Matrix transaction id). Rendering happens here, at send time, so a renderer fix reaches queued rows.
  func send(_ message: OutgoingMessage, to room: String, idempotencyKey: String) async throws -> DeliveryReceipt
  /// The room's next message, handed over while the one before it is being sent, so work that does not depend on
  /// that send (rendering) is done by the time it returns. A hint: `send` must give the same result without it.
  func prepare(_ message: OutgoingMessage, to room: String, idempotencyKey: String) async
  /// nil when connected and usable; otherwise why not (`connecting`, `reconnecting (timeout)`, `stopped: …`).
  func connectionProblem() async -> String?
  /// How many times the transport has connected since it started, when it counts them itself; nil: the monitor
  /// counts reconnects from what it sees between heartbeats.
  func connectionCount() async -> Int?
  /// Rooms where the bot cannot read commands (e.g. end-to-end encrypted Matrix rooms), for `status`.
  func unreadableRooms() async -> [String]
  /// Rooms the bot reads and writes end-to-end encrypted, each with whether the room's current key went to every
  /// joined device (false also before the first message there), for `status`.
  func encryptedRoomKeysShared() async -> [String: Bool]
  /// The bot's end-to-end encryption identity in a sentence for `status` ("cross-signed, master key …"); nil where
  /// the service has none.
  func encryptionIdentity() async -> String?
  /// The room id a configured room reference names (a Matrix alias resolved to its id); the reference itself
  /// where the service has no aliases.
  func resolveRoom(_ reference: String) async throws -> String
}

extension ChatTransport {
  package func prepare(_ message: OutgoingMessage, to room: String, idempotencyKey: String) async {}
  package func connectionProblem() async -> String? { nil }
  package func connectionCount() async -> Int? { nil }
  package func unreadableRooms() async -> [String] { [] }
  package func encryptedRoomKeysShared() async -> [String: Bool] { [:] }
  package func encryptionIdentity() async -> String? { nil }
  package func resolveRoom(_ reference: String) async throws -> String { reference }
}
