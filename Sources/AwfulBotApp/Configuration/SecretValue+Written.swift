import ChatBridge

extension SecretValue {
  /// A secret as the config file writes it, or the reason it is not one (which never quotes the value): a string,
  /// or `{"env": "NAME"}` with a name.
  static func written(_ value: JSONValue) -> Result<SecretValue, SecretShapeProblem> {
    switch value {
    case .string(let literal):
      return .success(SecretValue(literal: literal))
    case .object(let members):
      guard members.count == 1, let name = members["env"]?.stringValue, !name.isEmpty else {
        return .failure(SecretShapeProblem(reason: "expected a string or {\"env\": \"VARIABLE\"}"))
      }
      return .success(SecretValue(environment: name))
    default:
      return .failure(SecretShapeProblem(reason: "expected a string or {\"env\": \"VARIABLE\"}, got \(value.kindName)"))
    }
  }
}

/// Why a config value is not a secret's shape, in words for the problem list.
struct SecretShapeProblem: Error, Sendable {
  let reason: String
}
