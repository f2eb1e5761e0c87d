import Foundation
import ServiceLifecycle

/// A chat service. Running it (`run()`) connects and keeps it connected; everything it has to tell the engine
/// (messages, the bot's own membership changes, every change of its connection state) arrives on `events`, so
/// nothing outside the transport needs to know its concrete type.
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
  /// Reacts to a message with `key` (`✅`), to say the bot did what a reaction asked. Transports without
  /// `reactions` do nothing.
  func react(to messageID: String, in room: String, with key: String) async throws
  /// Removes one of the bot's own messages (a relay an admin took down with ❌). Transports that cannot throw
  /// `ChatSendError.permanent`.
  func redact(_ messageID: String, in room: String, reason: String?) async throws
  /// End-to-end encryption as `status` shows it; nil where the service has none.
  func encryptionStatus() async -> EncryptionStatus?
  /// The room id a configured room reference names, as messages name the room (a Matrix alias resolved to its id,
  /// an IRC channel case-folded).
  func resolveRoom(_ reference: String) async throws -> String
}

extension ChatTransport {
  package func prepare(_ message: OutgoingMessage, to room: String, idempotencyKey: String) async {}
  package func encryptionStatus() async -> EncryptionStatus? { nil }
  package func react(to messageID: String, in room: String, with key: String) async throws {}
  package func redact(_ messageID: String, in room: String, reason: String?) async throws {
    throw ChatSendError.permanent(reason: "this chat service cannot remove a message")
  }
  package func resolveRoom(_ reference: String) async throws -> String { reference }
}
