extension CodingUserInfoKey {
  /// Set to true to decode a transport's configuration without its secrets (`OptionReader.secretsRequired`): what the
  /// configuration says about who may act is read where the environment that holds the secrets is not.
  package static let secretsOptional = CodingUserInfoKey(rawValue: "awfulbot.secretsOptional")!
}
