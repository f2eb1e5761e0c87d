import ChatBridge

/// `m.forwarded_room_key` (to-device, inside Olm): a Megolm session's key exported from some index on, passed on by
/// a device that had it; `sender_key` names the device that made the session.
package struct MatrixForwardedRoomKey: MatrixEventContent, Hashable {
  package static let eventType = MatrixEventType.forwardedRoomKey

  package var algorithm: String?
  package var roomID: String?
  package var senderKey: String?
  package var sessionID: String?
  package var sessionKey: String?
  package var senderClaimedEd25519Key: String?
  package var forwardingCurve25519KeyChain: [JSONValue]?

  package init(
    roomID: String, senderKey: String, sessionID: String, sessionKey: String, senderClaimedEd25519Key: String
  ) {
    self.algorithm = MatrixAlgorithm.megolm
    self.roomID = roomID
    self.senderKey = senderKey
    self.sessionID = sessionID
    self.sessionKey = sessionKey
    self.senderClaimedEd25519Key = senderClaimedEd25519Key
    self.forwardingCurve25519KeyChain = []
  }

  enum CodingKeys: String, CodingKey {
    case algorithm
    case roomID = "room_id"
    case senderKey = "sender_key"
    case sessionID = "session_id"
    case sessionKey = "session_key"
    case senderClaimedEd25519Key = "sender_claimed_ed25519_key"
    case forwardingCurve25519KeyChain = "forwarding_curve25519_key_chain"
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    algorithm = container.lenient(String.self, forKey: .algorithm)
    roomID = container.lenient(String.self, forKey: .roomID)
    senderKey = container.lenient(String.self, forKey: .senderKey)
    sessionID = container.lenient(String.self, forKey: .sessionID)
    sessionKey = container.lenient(String.self, forKey: .sessionKey)
    senderClaimedEd25519Key = container.lenient(String.self, forKey: .senderClaimedEd25519Key)
    forwardingCurve25519KeyChain = container.lenient([JSONValue].self, forKey: .forwardingCurve25519KeyChain)
  }
}
