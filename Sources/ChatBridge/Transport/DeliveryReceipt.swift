/// Proof that the chat service accepted a message (Matrix event id, IRC line count, console sequence).
package struct DeliveryReceipt: Sendable, Hashable, Codable {
  package var id: String
  package init(id: String) { self.id = id }
}
