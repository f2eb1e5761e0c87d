import ChatBridge
import Foundation

/// Where the crypto state lives between restarts: in the transport's state store (the bot's SQLite database), under
/// `e2ee:` keys. Olm and Megolm state is stored only as libolm pickles, which libolm encrypts with the pickle key from
/// the config's secrets; device lists and already-encrypted events are public or ciphertext anyway.
struct MatrixCryptoStore: Sendable {
  let store: any TransportStateStore

  /// The device an account belongs to, and the account's pickle.
  struct AccountRecord: Codable, Sendable {
    var deviceID: String
    var pickle: String
    /// Device keys were accepted by the homeserver (uploaded once per device).
    var uploaded: Bool
    /// When the current fallback key was published (milliseconds since 1970); nil before the first.
    var fallbackPublishedAt: Int64?
    /// When the fallback key before it may be forgotten (an hour after its successor went up).
    var forgetOldFallbackAt: Int64?
  }

  /// A Megolm session someone shared with the bot for a room.
  struct InboundRecord: Codable, Sendable {
    var pickle: String
    /// The ed25519 key the sender's Olm message claimed (the device that shared the session).
    var senderSigningKey: String?
    /// The user whose device sent the key over Olm; only their events may use the session. nil for forwarded keys.
    var senderUser: String?
    /// For the bot's own sessions: the users whose devices got the key.
    var sharedWithUsers: Set<String>? = nil
    /// For the bot's own sessions: each device (`user|device`) the key went to, with the first message index it
    /// could read. A key request is answered only for these devices, and only from that index: a device that came
    /// later never reads what was said before it (a record from before this was kept answers none).
    var sharedFromIndex: [String: UInt32]? = nil
  }

  /// The bot's own Megolm session for a room: who has its key and when it must be replaced.
  struct OutboundRecord: Codable, Sendable {
    var pickle: String
    var sessionID: String
    var createdAtMilliseconds: Int64
    var messageCount: Int
    /// `user|device` pairs the session key went to (Olm-encrypted `m.room_key`).
    var sharedWith: Set<String>
  }

  /// Known devices of a user (from `/keys/query`, signatures checked).
  struct DeviceRecord: Codable, Sendable, Hashable {
    var deviceID: String
    var curve25519: String
    var ed25519: String
    /// Signed by its owner's self-signing key, which their master key signed; nil in records from before
    /// cross-signing was checked (read again when met).
    var crossSigned: Bool?
    /// Signed by a master key other than the one pinned for the user, which the operator has not accepted: not
    /// trusted whatever its signatures say.
    var identityChanged: Bool? = nil
  }

  enum Key {
    static let account = "e2ee:account"
    static let outdatedUsers = "e2ee:outdated-users"
    static let sentRecently = "e2ee:sent-recently"
    static func olmSessions(curve25519: String) -> String { "e2ee:olm:\(curve25519)" }
    static func inbound(room: String, senderKey: String, sessionID: String) -> String {
      "e2ee:megolm-in:\(room)|\(senderKey)|\(sessionID)"
    }
    static func outbound(room: String) -> String { "e2ee:megolm-out:\(room)" }
    static func devices(user: String) -> String { "e2ee:devices:\(user)" }
    /// The master key pinned for a user (the first seen, or the last the operator accepted).
    static func pinnedIdentity(user: String) -> String { "e2ee:identity:\(user)" }
    /// Users whose current master key is not the pinned one, with both keys.
    static let identityChanges = "e2ee:identity-changes"
    static func sent(transactionID: String) -> String { "e2ee:sent:\(transactionID)" }
  }

  /// How many encrypted events are kept for resends; a crash is followed by a restart long before this many sends.
  static let sentKept = 500

  func read<T: Decodable>(_ type: T.Type, _ key: String) async throws -> T? {
    guard let text = try await store.value(for: key) else { return nil }
    return try JSONDecoder().decode(T.self, from: Data(text.utf8))
  }

  func encode<T: Encodable>(_ value: T) throws -> String {
    String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
  }

  func write<T: Encodable>(_ value: T?, _ key: String) async throws {
    try await store.setValue(try value.map(encode), for: key)
  }

  /// The encrypted content already made for a transaction id, if any.
  func sentContent(transactionID: String) async throws -> JSONValue? {
    try await read(JSONValue.self, Key.sent(transactionID: transactionID))
  }

  /// Saves the room's session after an encryption together with the event it made (one write), and forgets the
  /// oldest remembered events beyond `sentKept`.
  func saveEncryption(
    room: String, outbound: OutboundRecord, transactionID: String, content: JSONValue
  ) async throws {
    var recent = try await read([String].self, Key.sentRecently) ?? []
    recent.append(transactionID)
    var values: [String: String?] = [
      Key.outbound(room: room): try encode(outbound),
      Key.sent(transactionID: transactionID): try encode(content),
    ]
    while recent.count > Self.sentKept {
      values[Key.sent(transactionID: recent.removeFirst())] = .some(nil)
    }
    values[Key.sentRecently] = try encode(recent)
    try await store.setValues(values)
  }
}
