import ChatBridge
import Logging

/// Where the Matrix transport hands its events: the bounded queue, with a warning when a flood makes it drop some
/// (the first, then every hundredth).
struct MatrixEventSink: Sendable {
  let queue: ChatEventQueue
  let logger: Logger

  func yield(_ event: ChatEvent) {
    guard !queue.yield(event) else { return }
    let dropped = queue.dropped
    if dropped == 1 || dropped.isMultiple(of: 100) {
      logger.warning("chat events dropped: too many waiting", metadata: ["dropped": "\(dropped)"])
    }
  }

  func finish() { queue.finish() }
}
