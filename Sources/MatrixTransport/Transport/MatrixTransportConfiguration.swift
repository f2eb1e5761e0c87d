import ChatBridge
import Foundation
import MatrixCrypto

/// One Matrix account of the bot, as written in the config file.
///
/// ```json
/// { "name": "matrix", "homeserver": "https://matrix.example.org", "userID": "@awfulbot:example.org",
///   "password": "…", "rooms": ["#goons:example.org"], "allowedInviters": ["example.org", "@admin:elsewhere.net"],
///   "memberPowerLevel": 50, "adminPowerLevel": 100, "roleOverrides": {"@friend:example.org": "member"},
///   "threadRooms": ["#threads:example.org"] }
/// ```
package struct MatrixTransportConfiguration: Sendable, Hashable, Codable {
  /// The transport's name in rooms and subscriptions (`matrix`, `matrix-work`).
  package var name: String
  package var homeserver: URL
  /// The bot's full user id (`@awfulbot:example.org`).
  package var userID: String
  /// Either an access token, or a password (the bot then logs in once and keeps the token in the store).
  /// With both, the token is used and the password only when the homeserver rejects the token.
  package var accessToken: String?
  package var password: String?
  /// Device id for the password login; default: one generated on the first login and kept in the store.
  package var deviceID: String?
  package var deviceName: String
  /// Rooms joined at start, by id (`!abc:example.org`, or `!abc` in room version 12) or alias (`#room:example.org`).
  package var rooms: [String]
  /// Whose invites are accepted: user ids (`@alice:example.org`), server names (`example.org`), or `*` for anyone.
  /// Invites from anyone else are declined. Empty: only rooms from `rooms` are joined.
  package var allowedInviters: [String]
  /// Room power at or above which a user has the `member` / `admin` role.
  package var memberPowerLevel: Int
  package var adminPowerLevel: Int
  /// Roles that replace what room power says, per user id.
  package var roleOverrides: [String: Role]
  /// Rooms (ids or aliases) where the posts of one forum thread go into one Matrix thread.
  package var threadRooms: [String]
  /// How long one `/sync` long-poll waits for news.
  package var syncTimeoutSeconds: Double
  /// Marks relayed posts so clients do not show link previews.
  package var suppressLinkPreviews: Bool
  /// The secret the end-to-end encryption state (libolm pickles) is encrypted with in the database. The app fills it
  /// from a generated file when the config leaves it out; without one (or with encryption off) the bot tells each
  /// encrypted room once that it cannot take part, and sends nothing else there.
  package var pickleKey: String?
  /// How long a message that cannot be decrypted waits for its key before the room is told the bot could not read it.
  package var undecryptableWaitSeconds: Double
  /// End-to-end encryption: on or off, which devices are trusted, the recovery key (`"encryption": {…}`).
  package var encryption: MatrixEncryptionSettings
  /// New master keys the operator accepted for users whose identity changed (user id → the key, as the bot's notice
  /// and log show it; spaces are ignored). Applied on reload.
  package var acceptedIdentities: [String: String]
  /// Pictures in relayed posts shown in the room, and the limits on fetching them (`"images": {…}`).
  package var images = MatrixImageSettings()
  /// Replace a cross-signing identity this database does not hold (`run --reset-matrix-identity`); never from the file.
  package var resetIdentity: Bool = false
  /// Where a newly made recovery key is written for the operator (the app puts it in the data directory).
  package var recoveryKeyFile: URL? = nil

  package init(
    name: String = "matrix", homeserver: URL, userID: String, accessToken: String? = nil, password: String? = nil,
    deviceID: String? = nil, deviceName: String = "awfulbot", rooms: [String] = [], allowedInviters: [String] = [],
    memberPowerLevel: Int = 50, adminPowerLevel: Int = 100, roleOverrides: [String: Role] = [:],
    threadRooms: [String] = [], syncTimeoutSeconds: Double = 30, suppressLinkPreviews: Bool = true,
    pickleKey: String? = nil, undecryptableWaitSeconds: Double = 60,
    encryption: MatrixEncryptionSettings = MatrixEncryptionSettings(), acceptedIdentities: [String: String] = [:]
  ) {
    self.encryption = encryption
    self.acceptedIdentities = acceptedIdentities
    self.name = name
    self.homeserver = homeserver
    self.userID = userID
    self.accessToken = accessToken
    self.password = password
    self.deviceID = deviceID
    self.deviceName = deviceName
    self.rooms = rooms
    self.allowedInviters = allowedInviters
    self.memberPowerLevel = memberPowerLevel
    self.adminPowerLevel = adminPowerLevel
    self.roleOverrides = roleOverrides
    self.threadRooms = threadRooms
    self.syncTimeoutSeconds = syncTimeoutSeconds
    self.suppressLinkPreviews = suppressLinkPreviews
    self.pickleKey = pickleKey
    self.undecryptableWaitSeconds = undecryptableWaitSeconds
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(homeserver, forKey: .homeserver)
    try container.encode(userID, forKey: .userID)
    try container.encodeIfPresent(accessToken, forKey: .accessToken)
    try container.encodeIfPresent(password, forKey: .password)
    try container.encodeIfPresent(deviceID, forKey: .deviceID)
    try container.encode(deviceName, forKey: .deviceName)
    try container.encode(rooms, forKey: .rooms)
    try container.encode(allowedInviters, forKey: .allowedInviters)
    try container.encode(memberPowerLevel, forKey: .memberPowerLevel)
    try container.encode(adminPowerLevel, forKey: .adminPowerLevel)
    try container.encode(roleOverrides.mapValues(\.description), forKey: .roleOverrides)
    try container.encode(threadRooms, forKey: .threadRooms)
    try container.encode(syncTimeoutSeconds, forKey: .syncTimeoutSeconds)
    try container.encode(suppressLinkPreviews, forKey: .suppressLinkPreviews)
    try container.encodeIfPresent(pickleKey, forKey: .pickleKey)
    try container.encode(undecryptableWaitSeconds, forKey: .undecryptableWaitSeconds)
    try container.encode(encryption, forKey: .encryption)
    if !acceptedIdentities.isEmpty { try container.encode(acceptedIdentities, forKey: .acceptedIdentities) }
    try container.encode(images, forKey: .images)
  }

  /// Whether the bot reads and writes encrypted rooms: encryption on and a pickle key to keep its keys under.
  package var encrypts: Bool { encryption.enabled && !(pickleKey ?? "").isEmpty }

  var identityOptions: MatrixIdentityOptions {
    MatrixIdentityOptions(
      password: password, localpart: localpart, recoveryKey: encryption.recoveryKey, resetIdentity: resetIdentity,
      recoveryKeyFile: recoveryKeyFile, trust: encryption.trust, acceptedIdentities: acceptedIdentities)
  }

  var roleMapping: MatrixRoleMapping {
    MatrixRoleMapping(
      memberPowerLevel: memberPowerLevel, adminPowerLevel: adminPowerLevel, userOverrides: roleOverrides)
  }

  /// Whether an invite from `userID` is accepted.
  package func acceptsInvite(from userID: String) -> Bool {
    let server = userID.split(separator: ":", maxSplits: 1).dropFirst().first.map(String.init)?.lowercased()
    for entry in allowedInviters {
      if entry == "*" || entry == userID { return true }
      let name = entry.hasPrefix(":") ? String(entry.dropFirst()) : entry
      if !name.hasPrefix("@"), let server, name.lowercased() == server { return true }
    }
    return false
  }

  /// The user id's localpart (`awfulbot` of `@awfulbot:example.org`), the login name.
  var localpart: String {
    String(userID.dropFirst().prefix { $0 != ":" })
  }
}

extension MatrixTransportConfiguration: CustomStringConvertible {
  /// Never includes the token or password (a configuration may end up in a log line).
  package var description: String {
    "matrix \(name): \(userID) on \(homeserver.absoluteString), \(accessToken == nil ? "password" : "token") login"
  }
}
