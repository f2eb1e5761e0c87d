/// Why the bot's cross-signing identity could not be set up, as the sentence the operator reads. Each one stops the
/// Matrix transport (users on Element would not see a bot without it), never the other transports.
package enum MatrixCrossSigningError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The homeserver wants the account's password to publish keys, and the config has only an access token.
  case passwordNeeded
  case passwordRefused(String)
  case unsupportedAuth([String])
  /// The account has a cross-signing identity this database does not hold, and no recovery key was given.
  case identityNotHeld(userID: String, masterKey: String)
  /// The recovery key is well formed but not the account's secret storage key.
  case recoveryKeyWrong(userID: String)
  /// The account's secret storage lacks what recovery needs (no default key, or a missing secret).
  case secretStorageIncomplete(String)
  /// Secret storage opened, but the keys in it are not the ones the account publishes.
  case recoveredKeysDiffer(userID: String)

  package var description: String {
    switch self {
    case .passwordNeeded:
      "the homeserver asks for the bot account's password before it publishes the bot's cross-signing keys, and the "
        + "config gives only an access token: add the password to the Matrix transport (password, or "
        + "$AWFULBOT_<NAME>_PASSWORD)"
    case .passwordRefused(let detail):
      "the homeserver refused the bot account's password when publishing its cross-signing keys (\(detail)); check "
        + "the password"
    case .unsupportedAuth(let flows):
      "the homeserver wants a kind of sign-in the bot cannot do before it publishes cross-signing keys "
        + "(\(flows.joined(separator: "; "))); publish the keys once from a client that can, then restore them with "
        + "the recovery key"
    case .identityNotHeld(let userID, let masterKey):
      "\(userID) already has a cross-signing identity (master key \(MatrixEncryptionSetup.grouped(masterKey))) that "
        + "this database does not hold. Give its recovery key as encryption.recoveryKey in the config to recover it, "
        + "or start once with --reset-matrix-identity to make a new one (everyone in encrypted rooms then sees that "
        + "the bot's identity changed)"
    case .recoveryKeyWrong(let userID):
      "encryption.recoveryKey is not the recovery key of \(userID)'s secret storage (it does not match the key the "
        + "account has); give the key that was shown when the identity was made"
    case .secretStorageIncomplete(let what):
      "the account's secret storage cannot recover the cross-signing keys: \(what). Start once with "
        + "--reset-matrix-identity to make a new identity"
    case .recoveredKeysDiffer(let userID):
      "the cross-signing keys in \(userID)'s secret storage are not the ones the account publishes (they were "
        + "replaced elsewhere without updating secret storage); start once with --reset-matrix-identity"
    }
  }
}
