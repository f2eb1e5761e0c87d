import Synchronization

/// A transport's events on their way to the engine, bounded: a flood of messages (500 commands a minute from one
/// viewer) cannot grow the process without end while the engine works through them. When `limit` events wait, newer
/// ones are dropped and counted (`dropped`); the transport logs the count. The limit is far above what a room says
/// between two commands' answers, so only a flood meets it.
package final class ChatEventQueue: Sendable {
  /// Events that may wait at once.
  package static let standardLimit = 2_000

  package let events: AsyncStream<ChatEvent>
  private let continuation: AsyncStream<ChatEvent>.Continuation
  private let droppedCount = Atomic<Int>(0)

  package init(limit: Int = ChatEventQueue.standardLimit) {
    (events, continuation) = AsyncStream.makeStream(
      of: ChatEvent.self, bufferingPolicy: .bufferingOldest(max(1, limit)))
  }

  /// Hands `event` on; false when it was dropped because the queue is full (or finished).
  @discardableResult
  package func yield(_ event: ChatEvent) -> Bool {
    switch continuation.yield(event) {
    case .enqueued: return true
    case .dropped:
      droppedCount.add(1, ordering: .relaxed)
      return false
    case .terminated: return false
    @unknown default: return false
    }
  }

  /// Events dropped so far because the queue was full.
  package var dropped: Int { droppedCount.load(ordering: .relaxed) }

  package func finish() { continuation.finish() }
}
