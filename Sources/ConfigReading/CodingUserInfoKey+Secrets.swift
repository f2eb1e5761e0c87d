extension CodingUserInfoKey {
  /// Set to true to decode a configuration without its secrets (`ConfigReader.secretsRequired`): what the
  /// configuration says about who may act is read where the environment that holds the secrets is not.
  package static let secretsOptional = CodingUserInfoKey(rawValue: "awfulbot.secretsOptional")!

  /// The `ConfigProblemSink` a whole configuration is read into: every reader inside reports there at full key paths.
  package static let configProblemSink = CodingUserInfoKey(rawValue: "awfulbot.configProblemSink")!
}
