import MatrixCrypto

extension MatrixEncryptionSetup {
  /// The store keys of the token and device the bot signed in with (for `check`'s look at the published identity).
  /// They are the transport's keys, so they are named here rather than in the crypto.
  package static let accessTokenKey = MatrixStateKey.accessToken
  package static let deviceIDKey = MatrixStateKey.deviceID
}
