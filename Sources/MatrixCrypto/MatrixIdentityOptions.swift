import Foundation

/// Which devices the bot trusts with room keys and commands in encrypted rooms.
package enum MatrixDeviceTrust: String, Sendable, Hashable, Codable, CaseIterable {
  /// Element's policy (MSC4153, "exclude insecure devices"): only devices their owner cross-signed.
  case crossSigned = "cross-signed"
  /// Every device with valid self-signed keys; a homeserver admin or a stolen password can then add a device that
  /// reads the room and speaks for its user.
  case any
}

/// What the crypto needs to set up and keep the bot's cross-signing identity.
package struct MatrixIdentityOptions: Sendable, Hashable {
  /// The account's password, for the user-interactive auth that publishing keys may need.
  package var password: String?
  package var localpart: String
  /// The recovery key from the config (or the file the bot wrote it to).
  package var recoveryKey: RecoveryKey?
  /// Replace an identity this database does not hold (users then see the bot's identity change).
  package var resetIdentity: Bool
  /// Where a newly made recovery key is written for the operator (0600); nil: it stays in the database only.
  package var recoveryKeyFile: URL?
  package var trust: MatrixDeviceTrust
  /// New master keys the operator accepted for users whose identity changed (user id → master key).
  package var acceptedIdentities: [String: String]

  package init(
    password: String? = nil, localpart: String, recoveryKey: RecoveryKey? = nil, resetIdentity: Bool = false,
    recoveryKeyFile: URL? = nil, trust: MatrixDeviceTrust = .crossSigned, acceptedIdentities: [String: String] = [:]
  ) {
    self.acceptedIdentities = acceptedIdentities
    self.password = password
    self.localpart = localpart
    self.recoveryKey = recoveryKey
    self.resetIdentity = resetIdentity
    self.recoveryKeyFile = recoveryKeyFile
    self.trust = trust
  }
}
