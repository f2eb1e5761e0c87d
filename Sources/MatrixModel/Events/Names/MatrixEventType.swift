/// The event types the bot reads or writes, spelled once (spec: "Events", "End-to-End Encryption", "Secrets").
/// Room events, to-device events and the account data of secret storage alike: each is a type name on the wire.
package enum MatrixEventType {
  // Room events.
  package static let roomMessage = "m.room.message"
  package static let reaction = "m.reaction"
  package static let roomMember = "m.room.member"
  package static let powerLevels = "m.room.power_levels"
  package static let roomCreate = "m.room.create"
  package static let roomEncrypted = "m.room.encrypted"
  package static let roomEncryption = "m.room.encryption"
  package static let historyVisibility = "m.room.history_visibility"
  package static let redaction = "m.room.redaction"

  // To-device events (inside Olm, except the request and the encrypted envelope itself).
  package static let roomKey = "m.room_key"
  package static let forwardedRoomKey = "m.forwarded_room_key"
  package static let roomKeyRequest = "m.room_key_request"
  package static let dummy = "m.dummy"

  // Account data of secret storage.
  package static let secretStorageDefaultKey = "m.secret_storage.default_key"
  /// The description of the storage key `keyID` (its algorithm and check values).
  package static func secretStorageKey(_ keyID: String) -> String { "m.secret_storage.key.\(keyID)" }
  /// The secret holding the seed of one cross-signing key (`master`, `self_signing`, `user_signing`).
  package static func crossSigningSecret(_ usage: String) -> String { "m.cross_signing.\(usage)" }
}
