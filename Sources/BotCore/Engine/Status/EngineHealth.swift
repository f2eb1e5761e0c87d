import ChatBridge
import Foundation

/// The whole bot's health: poll sources and the outbox.
package struct EngineHealth: Sendable, Hashable {
  package var sources: [SourceHealth]
  /// Rows waiting per room (only rooms with something waiting).
  package var outboxDepth: [RoomRef: Int]
  /// Rows given up on after too many retryable failures.
  package var deadLetters: Int
  /// Rows the transport refused for good.
  package var failed: Int
  /// Items held for quiet hours or digests.
  package var held: Int
  /// Rows never sent because the bot stopped twice while sending each (the poison-message guard).
  package var parked = 0
  /// The newest parked rows, named with their rooms for the sentence (`ParkedText`).
  package var parkedRows: [String] = []

  package init(sources: [SourceHealth], outboxDepth: [RoomRef: Int], deadLetters: Int, failed: Int, held: Int) {
    self.sources = sources
    self.outboxDepth = outboxDepth
    self.deadLetters = deadLetters
    self.failed = failed
    self.held = held
  }

  /// Every source healthy and nothing dead-lettered or parked.
  package var isHealthy: Bool { sources.allSatisfy(\.isHealthy) && deadLetters == 0 && parked == 0 }

  /// The sentence about parked rows; nil when there are none.
  package var parkedSentence: String? {
    parked == 0 ? nil : ParkedText.sentence(count: parked, rows: parkedRows)
  }
}
