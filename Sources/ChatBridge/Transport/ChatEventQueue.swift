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
    offer(event) == .queued
  }

  /// What became of an event handed on.
  package enum Outcome: Sendable, Hashable {
    case queued
    /// Dropped because the queue is full; `total`: events dropped so far.
    case dropped(total: Int)
    /// The stream has ended (the transport is shutting down): nobody reads events any more, so none is lost.
    case finished

    /// The count to log for this drop, or nil when there is nothing to log: the first drop and every hundredth
    /// are logged, so a flood is seen without flooding the log. An event after the stream ended is not a drop.
    package var droppedToReport: Int? {
      guard case .dropped(let total) = self, total == 1 || total.isMultiple(of: 100) else { return nil }
      return total
    }
  }

  /// Hands `event` on and says what became of it.
  @discardableResult
  package func offer(_ event: ChatEvent) -> Outcome {
    switch continuation.yield(event) {
    case .enqueued: return .queued
    case .dropped: return .dropped(total: droppedCount.add(1, ordering: .relaxed).newValue)
    case .terminated: return .finished
    @unknown default: return .finished
    }
  }

  /// Events dropped so far because the queue was full.
  package var dropped: Int { droppedCount.load(ordering: .relaxed) }

  package func finish() { continuation.finish() }
}
