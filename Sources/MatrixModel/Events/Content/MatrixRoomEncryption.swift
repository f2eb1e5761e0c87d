/// `m.room.encryption`: the room is end-to-end encrypted (for good), with which algorithm and how often the sender's
/// session must be replaced.
package struct MatrixRoomEncryption: MatrixEventContent, Hashable {
  package static let eventType = MatrixEventType.roomEncryption

  package var algorithm: String?
  package var rotationPeriodMs: Int?
  package var rotationPeriodMsgs: Int?

  package init(algorithm: String) {
    self.algorithm = algorithm
  }

  enum CodingKeys: String, CodingKey {
    case algorithm
    case rotationPeriodMs = "rotation_period_ms"
    case rotationPeriodMsgs = "rotation_period_msgs"
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    algorithm = container.lenient(String.self, forKey: .algorithm)
    rotationPeriodMs = container.lenientInt(forKey: .rotationPeriodMs)
    rotationPeriodMsgs = container.lenientInt(forKey: .rotationPeriodMsgs)
  }
}
