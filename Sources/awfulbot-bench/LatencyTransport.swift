import ChatBridge
import Foundation
import ServiceLifecycle
import Synchronization

/// The chat side of `latency`: takes every message at once and notes when each post's relay arrived, in order.
/// It stays connected until the bot shuts down, as a chat service does.
final class LatencyTransport: ChatTransport, Sendable {
  let name = "bench"
  let capabilities = ChatCapabilities.plainText
  let events: AsyncStream<ChatEvent>
  private let eventContinuation: AsyncStream<ChatEvent>.Continuation
  /// Post ids in the order their relays arrived, with when.
  private let relays = Mutex<[(postID: Int, at: ContinuousClock.Instant)]>([])
  /// Messages that were not one post's relay (a summary line, for one).
  private let others = Mutex(0)

  init() {
    (events, eventContinuation) = AsyncStream<ChatEvent>.makeStream()
    eventContinuation.yield(.connection(.connected))
  }

  var relayed: [(postID: Int, at: ContinuousClock.Instant)] { relays.withLock { $0 } }
  var otherMessages: Int { others.withLock { $0 } }

  func run() async throws {
    let (stop, stopContinuation) = AsyncStream<Void>.makeStream()
    await withGracefulShutdownHandler {
      for await _ in stop {}
    } onGracefulShutdown: {
      stopContinuation.finish()
    }
    eventContinuation.finish()
  }

  func send(_ message: OutgoingMessage, to room: String, idempotencyKey: String) async throws -> DeliveryReceipt {
    let now = ContinuousClock.now
    // Relays are keyed `<transport>|<room>|post:<id>` (`OutboxKey.post`).
    if let range = idempotencyKey.range(of: "|post:"), let id = Int(idempotencyKey[range.upperBound...]) {
      relays.withLock { $0.append((id, now)) }
    } else {
      others.withLock { $0 += 1 }
    }
    return DeliveryReceipt(id: idempotencyKey)
  }
}
