import BotCore
import ChatBridge

/// A transport that accepts everything at once: the poll benchmark measures the forum side, not chat.
final class NullTransport: ChatTransport, Sendable {
  let name = "bench"
  let capabilities = ChatCapabilities.plainText
  let events = AsyncStream<ChatEvent> {
    $0.yield(.connection(.connected))
    $0.finish()
  }

  func run() async throws {}

  func send(_ message: OutgoingMessage, to room: String, idempotencyKey: String) async throws -> DeliveryReceipt {
    DeliveryReceipt(id: idempotencyKey)
  }
}
