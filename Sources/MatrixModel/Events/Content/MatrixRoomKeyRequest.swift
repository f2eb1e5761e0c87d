/// `m.room_key_request` (to-device, in the clear): a device asks for a Megolm session's key, or cancels the ask.
package struct MatrixRoomKeyRequest: MatrixEventContent, Hashable {
  package static let eventType = MatrixEventType.roomKeyRequest

  /// The session asked for.
  package struct Body: Sendable, Hashable, Codable {
    package var algorithm: String?
    package var roomID: String?
    package var sessionID: String?
    package var senderKey: String?

    enum CodingKeys: String, CodingKey {
      case algorithm
      case roomID = "room_id"
      case sessionID = "session_id"
      case senderKey = "sender_key"
    }

    package init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      algorithm = container.lenient(String.self, forKey: .algorithm)
      roomID = container.lenient(String.self, forKey: .roomID)
      sessionID = container.lenient(String.self, forKey: .sessionID)
      senderKey = container.lenient(String.self, forKey: .senderKey)
    }
  }

  /// `request` or `request_cancellation`.
  package var action: String?
  package var requestingDeviceID: String?
  package var requestID: String?
  package var body: Body?

  enum CodingKeys: String, CodingKey {
    case action
    case requestingDeviceID = "requesting_device_id"
    case requestID = "request_id"
    case body
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    action = container.lenient(String.self, forKey: .action)
    requestingDeviceID = container.lenient(String.self, forKey: .requestingDeviceID)
    requestID = container.lenient(String.self, forKey: .requestID)
    body = container.lenient(Body.self, forKey: .body)
  }
}
