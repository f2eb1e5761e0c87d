import ChatBridge
import Logging

/// Where the Matrix transport hands its events: the bounded queue, with a warning when a flood makes it drop some
/// (the first, then every hundredth).
struct MatrixEventSink: Sendable {
  let queue: ChatEventQueue
  let logger: Logger

  func yield(_ event: ChatEvent) {
    if let total = queue.offer(event).droppedToReport {
      logger.warning("chat events dropped: too many waiting", metadata: ["dropped": "\(total)"])
    }
  }

  func finish() { queue.finish() }
}
