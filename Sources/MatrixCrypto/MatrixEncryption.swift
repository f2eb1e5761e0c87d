import ChatBridge
import MatrixModel

/// End-to-end encryption as the transport sees it. The libolm implementation (`LibOlmEncryption`) sits behind this
/// so it can be replaced (vodozemac) without touching the sync loop, the send path or the engine.
package protocol MatrixEncryption: Sendable {
  /// Loads or creates the device's account and publishes its keys (once) and one-time keys (topped up).
  func start() async throws

  /// The crypto parts of a sync answer: to-device messages (room keys), device list changes, one-time key counts.
  /// Returns the Megolm sessions that arrived, so events waiting for them can be decrypted.
  func receive(_ sync: MatrixSyncResponse) async -> [MatrixMegolmSessionID]

  /// The members of an encrypted room changed. Someone left (or was kicked or banned): the room's next message goes
  /// out under a new session, so they cannot read it. Someone joined: the current session is shared with them from
  /// its current index on (they cannot read what came before).
  func membersChanged(room: String, someoneLeft: Bool) async

  /// The room's history visibility changed: its next message goes out under a new session, whose key says whether
  /// members may pass it on to people invited later (`shared_history`, MSC4268).
  func historyVisibilityChanged(room: String) async

  /// Decrypts a timeline `m.room.encrypted` event.
  func decrypt(_ event: MatrixEvent, room: String) async -> MatrixDecryption

  /// Encrypts `content` (of event type `type`) for everyone in the room, sharing the room's session key with every
  /// joined device first. The same transaction id always yields the same encrypted content (a resend after a crash
  /// repeats the event the homeserver may already have), and the session moves on once per transaction id.
  func encrypt(_ content: JSONValue, type: String, room: String, transactionID: String) async throws -> JSONValue

  /// The device's ed25519 key (for verifying it by hand), nil before `start`.
  func fingerprint() async -> String?

  /// Encrypted rooms with a session whose key went to every trusted joined device at its last send.
  func sharedRooms() async -> Set<String>

  /// The bot's cross-signing identity once established; nil before `start` finished.
  func identityStatus() async -> MatrixIdentityStatus?

  /// The recovery key of the bot's secret storage as Element shows it, nil when none is known.
  func recoveryKey() async -> String?

  /// The new master keys the operator accepted, per user (`acceptedIdentities`); replaces the earlier list.
  func acceptIdentities(_ identities: [String: String]) async
  /// Users whose identity changed and whose rooms have not been told yet.
  func identityChangesToAnnounce() async -> [MatrixIdentityChange]
  /// The rooms were told about this change (not again, across restarts).
  func identityChangeAnnounced(_ change: MatrixIdentityChange) async
  /// The change that keeps `user`'s devices untrusted, if one does.
  func changedIdentity(of user: String) async -> MatrixIdentityChange?
}

/// A user whose master key is not the one the bot pinned for them: their devices are untrusted until the operator
/// accepts the new key.
package struct MatrixIdentityChange: Sendable, Hashable {
  package var user: String
  package var pinnedMasterKey: String
  package var currentMasterKey: String

  package init(user: String, pinnedMasterKey: String, currentMasterKey: String) {
    self.user = user
    self.pinnedMasterKey = pinnedMasterKey
    self.currentMasterKey = currentMasterKey
  }
}

/// The bot's cross-signing identity, for `status`.
package struct MatrixIdentityStatus: Sendable, Hashable {
  /// The master key (the identity people's clients pin).
  package var masterKey: String
  package var trust: MatrixDeviceTrust
  /// Users whose identity changed and waits for the operator to accept it.
  package var changedIdentities: [String] = []
}

/// A Megolm session by what identifies it in an event.
package struct MatrixMegolmSessionID: Sendable, Hashable {
  package var room: String
  package var senderKey: String
  package var sessionID: String

  package init(room: String, senderKey: String, sessionID: String) {
    self.room = room
    self.senderKey = senderKey
    self.sessionID = sessionID
  }
}

package enum MatrixDecryption: Sendable {
  /// The event as it was sent (type and content from inside), sender and id from outside.
  case decrypted(MatrixEvent)
  /// Readable, but sent from a device the trust policy does not accept (not cross-signed by its owner): shown to no
  /// one, acted on never. The device id when it is known.
  case untrustedDevice(MatrixEvent, deviceID: String?)
  /// No key for it yet: may become readable when the session arrives.
  case missingSession(MatrixMegolmSessionID)
  /// Will never be readable (bad ciphertext, wrong room, unknown algorithm); why.
  case failed(String)
}

/// Failures of the encryption layer that the send path reports (retryable: the next attempt may succeed).
package struct MatrixEncryptionError: Error, Sendable, CustomStringConvertible {
  package var description: String
  package init(_ description: String) { self.description = description }
}
