import ChatBridge

/// The receipts of the latest delivered sends by idempotency key, so a retry after a lost receipt (the outbox asking
/// again for a message that was delivered) is answered without sending twice. Kept across connections: a send
/// delivered on one connection is still delivered after a reconnect. Bounded, oldest forgotten first.
struct IRCReceiptMemory: Sendable {
  let capacity: Int
  private var receipts: [String: DeliveryReceipt] = [:]
  private var order: [String] = []

  init(capacity: Int = 2000) { self.capacity = max(capacity, 1) }

  subscript(key: String) -> DeliveryReceipt? { receipts[key] }

  var count: Int { receipts.count }

  mutating func remember(_ receipt: DeliveryReceipt, for key: String) {
    if receipts.updateValue(receipt, forKey: key) == nil { order.append(key) }
    while order.count > capacity { receipts[order.removeFirst()] = nil }
  }
}
