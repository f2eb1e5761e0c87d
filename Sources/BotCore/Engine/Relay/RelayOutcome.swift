/// What a relay step wrote.
struct RelayOutcome: Sendable {
  /// Outbox rows created.
  var queued = 0
  /// Items held for quiet hours or digests.
  var held = 0
  /// Transports with new rows, whose dispatchers should wake.
  var transports: Set<String> = []

  mutating func merge(_ other: RelayOutcome) {
    queued += other.queued
    held += other.held
    transports.formUnion(other.transports)
  }
}
