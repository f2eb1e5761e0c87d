import ChatBridge
import MatrixModel

/// The `/sync` filter: room messages and reactions, membership, power levels, room creation and encryption; no
/// presence, receipts, typing or account data. Sent inline (JSON in the `filter` parameter) so no filter has to be
/// uploaded and remembered.
package enum MatrixSyncFilter {
  /// Encrypted events are decrypted when encryption is on; without it, one from someone else tells the bot the room
  /// is encrypted (see `MatrixEncryptionNotice`). To-device events and device lists are not filtered by room filters.
  /// `m.room.encryption` is listed here too because state changes arrive in the timeline. Reactions arrive plain
  /// also in encrypted rooms from Element Web (it never encrypts them), encrypted from Element X.
  package static let eventTypes: [JSONValue] = [
    MatrixEventType.roomMessage, MatrixEventType.reaction, MatrixEventType.roomMember, MatrixEventType.powerLevels,
    MatrixEventType.roomEncrypted, MatrixEventType.roomEncryption,
  ].map(JSONValue.string)
  /// State also includes the create event: from room version 12 on, the creators' power comes from it.
  package static let stateTypes: [JSONValue] = [
    MatrixEventType.roomMessage, MatrixEventType.roomMember, MatrixEventType.powerLevels,
    MatrixEventType.roomEncryption, MatrixEventType.roomCreate,
  ].map(JSONValue.string)

  /// - Parameter sender: a user whose events the timeline leaves out (the bot itself while it sends: see
  ///   `MatrixTransport.syncLoop`). The homeserver drops them before it loads anything; the room's state still
  ///   carries their state changes when anything else happened in the room.
  package static func filter(timelineLimit: Int = 50, leavingOut sender: String? = nil) -> JSONValue {
    var timeline: [String: JSONValue] = ["types": .array(eventTypes), "limit": .number(Double(timelineLimit))]
    if let sender { timeline["not_senders"] = [.string(sender)] }
    return [
      "presence": ["not_types": ["*"]],
      "account_data": ["not_types": ["*"]],
      "room": [
        // Left rooms are needed to notice kicks and bans; on the first sync their old timelines are ignored.
        "include_leave": true,
        "timeline": .object(timeline),
        "state": ["types": .array(stateTypes), "lazy_load_members": true],
        "ephemeral": ["not_types": ["*"]],
        "account_data": ["not_types": ["*"]],
      ],
    ]
  }
}
