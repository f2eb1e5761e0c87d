import ChatBridge

/// Who has been told that an unencrypted message in an encrypted room does not act, so each sender hears it once
/// per room (the next ones are ignored in silence, and logged). Bounded: the oldest are forgotten first, and a
/// forgotten sender is at most told once more.
package actor UntrustedSenders {
  package struct Key: Sendable, Hashable {
    package var transport: String
    package var room: String
    package var senderID: String
  }

  private let capacity: Int
  private var told: Set<Key> = []
  private var order: [Key] = []

  package init(capacity: Int = 10_000) {
    self.capacity = max(1, capacity)
  }

  /// True the first time for `key` (tell them), false after.
  package func shouldTell(_ key: Key) -> Bool {
    guard told.insert(key).inserted else { return false }
    order.append(key)
    if order.count > capacity {
      told.remove(order.removeFirst())
    }
    return true
  }
}
