import ChatBridge
import Foundation

/// What one pass of a dispatcher did.
package struct DrainReport: Sendable, Hashable {
  package var delivered = 0
  package var retried = 0
  /// Rows the transport refused for good.
  package var failed = 0
  package var deadLettered = 0
  /// The earliest moment a row waiting for a retry becomes due, if any.
  package var nextRetry: Date?

  package init() {}

  mutating func merge(_ other: DrainReport) {
    delivered += other.delivered
    retried += other.retried
    failed += other.failed
    deadLettered += other.deadLettered
    nextRetry = [nextRetry, other.nextRetry].compactMap { $0 }.min()
  }
}
