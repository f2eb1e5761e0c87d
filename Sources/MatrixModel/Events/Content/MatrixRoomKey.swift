/// `m.room_key` (to-device, inside Olm): a Megolm session's key, from the device that made the session.
package struct MatrixRoomKey: MatrixEventContent, Hashable {
  package static let eventType = MatrixEventType.roomKey

  package var algorithm: String?
  package var roomID: String?
  package var sessionID: String?
  package var sessionKey: String?
  /// MSC4268 (spec v1.19): members may pass the key on to people invited later. Written under the spec's name and
  /// the proposal's (matrix-rust-sdk reads the proposal's).
  package var sharedHistory: Bool?
  package var sharedHistoryUnstable: Bool?

  package init(roomID: String, sessionID: String, sessionKey: String, sharedHistory: Bool) {
    self.algorithm = MatrixAlgorithm.megolm
    self.roomID = roomID
    self.sessionID = sessionID
    self.sessionKey = sessionKey
    self.sharedHistory = sharedHistory
    self.sharedHistoryUnstable = sharedHistory
  }

  enum CodingKeys: String, CodingKey {
    case algorithm
    case roomID = "room_id"
    case sessionID = "session_id"
    case sessionKey = "session_key"
    case sharedHistory = "shared_history"
    case sharedHistoryUnstable = "org.matrix.msc3061.shared_history"
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    algorithm = container.lenient(String.self, forKey: .algorithm)
    roomID = container.lenient(String.self, forKey: .roomID)
    sessionID = container.lenient(String.self, forKey: .sessionID)
    sessionKey = container.lenient(String.self, forKey: .sessionKey)
    sharedHistory = container.lenient(Bool.self, forKey: .sharedHistory)
    sharedHistoryUnstable = container.lenient(Bool.self, forKey: .sharedHistoryUnstable)
  }
}
