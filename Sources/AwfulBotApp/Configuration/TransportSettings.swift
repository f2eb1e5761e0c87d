import BotCore
import ChatBridge
import Foundation

/// One chat connection in the `transports` list: its `type`, its unique `name` (the `transport` of rooms and role
/// grants), and every other key as written, which the transport's `TransportKind` checks and turns into the
/// transport module's own configuration.
package struct TransportSettings: Sendable, Encodable, Hashable {
  package var type: TransportType
  package var name: String?
  /// The transport's own keys (everything but `type` and `name`); secrets may still be `{"env": "NAME"}`.
  package var options: [String: JSONValue]

  package init(type: TransportType, name: String? = nil, options: [String: JSONValue] = [:]) {
    self.type = type
    self.name = name
    self.options = options
  }

  package var resolvedName: String { name ?? type.rawValue }

  /// The keys every transport has; the others are its kind's (`TransportKind.options`).
  enum CodingKeys: String, CodingKey, CaseIterable {
    case type, name
  }

  private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyKey.self)
    try container.encode(type.rawValue, forKey: AnyKey(stringValue: CodingKeys.type.stringValue))
    try container.encodeIfPresent(name, forKey: AnyKey(stringValue: CodingKeys.name.stringValue))
    for (key, value) in options.sorted(by: { $0.key < $1.key }) {
      try container.encode(value, forKey: AnyKey(stringValue: key))
    }
  }

  /// `AWFULBOT_<NAME>_<KEY>`: the environment variable that supplies a secret this transport's config leaves out,
  /// e.g. `AWFULBOT_IRC_LIBERA_SASL_PASSWORD` for `sasl.password` of the transport named `irc-libera`.
  package static func environmentVariable(transport: String, key: String) -> String {
    var words: [String] = ["AWFULBOT", transport]
    // accessToken → ACCESS_TOKEN, sasl.password → SASL_PASSWORD
    var current = ""
    for character in key {
      if character == "." || character == "-" {
        words.append(current)
        current = ""
      } else if character.isUppercase, !current.isEmpty {
        words.append(current)
        current = String(character)
      } else {
        current.append(character)
      }
    }
    words.append(current)
    return words.filter { !$0.isEmpty }.joined(separator: "_").uppercased()
      .map { $0.isLetter || $0.isNumber ? $0 : "_" }.reduce(into: "") { $0.append($1) }
  }

  /// The options with every secret resolved, ready to decode into the transport's configuration type:
  /// `{"env": "NAME"}` anywhere becomes the variable's value, and each of `secretKeys` the config leaves out is
  /// taken from `AWFULBOT_<NAME>_<KEY>` when that is set. Problems name the key path under `path`.
  package func resolvedOptions(
    secretKeys: [String], environment: [String: String], path: String = "", reader: inout ConfigReader
  ) -> [String: JSONValue] {
    var resolved: [String: JSONValue] = [:]
    for (key, value) in options {
      resolved[key] = Self.resolve(value, at: ConfigReader.join(path, key), environment: environment, reader: &reader)
    }
    for key in secretKeys {
      let parts = key.split(separator: ".").map(String.init)
      guard Self.value(at: parts, in: .object(resolved)) == nil else { continue }
      let variable = Self.environmentVariable(transport: resolvedName, key: key)
      if let value = environment[variable], !value.isEmpty {
        resolved = Self.setting(.string(value), at: parts, in: resolved)
      }
    }
    return resolved
  }

  /// Decodes the resolved options (plus `name`) into a transport module's configuration type; throws a
  /// `ConfigurationError` listing what is missing or malformed. `secretsRequired` false: a secret not set reads as
  /// empty and one left out is not asked for (`CodingUserInfoKey.secretsOptional`), for what needs only the
  /// settings.
  package func decodeOptions<T: Decodable>(
    _ type: T.Type, kind: TransportKind, environment: [String: String] = ProcessInfo.processInfo.environment,
    secretsRequired: Bool = true
  ) throws -> T {
    var reader = ConfigReader(checksSecrets: secretsRequired)
    var options = resolvedOptions(secretKeys: kind.secretKeys, environment: environment, reader: &reader)
    if !reader.problems.isEmpty { throw ConfigurationError(problems: reader.problems) }
    options = kind.prepare(options.filter { !ConfigReader.isComment($0.key) })
    options["name"] = .string(resolvedName)
    do {
      return try JSONValue.object(options).decode(
        T.self, userInfo: secretsRequired ? [:] : [.secretsOptional: true])
    } catch {
      throw ConfigurationError(problems: ["transport \(resolvedName): \(error)"])
    }
  }

  private static func resolve(
    _ value: JSONValue, at path: String, environment: [String: String], reader: inout ConfigReader
  ) -> JSONValue {
    switch value {
    case .object(let members):
      if members.count == 1, case .string(let variable)? = members["env"] {
        let secret = SecretValue(environment: variable)
        guard let resolved = secret.resolve(environment: environment) else {
          if reader.checksSecrets { reader.report(path, "\(secret) is not set") }
          return reader.checksSecrets ? .null : .string("")
        }
        return .string(resolved)
      }
      var out: [String: JSONValue] = [:]
      for (key, member) in members {
        out[key] = resolve(member, at: ConfigReader.join(path, key), environment: environment, reader: &reader)
      }
      return .object(out)
    case .array(let items):
      return .array(
        items.enumerated().map { index, item in
          resolve(item, at: "\(path)[\(index)]", environment: environment, reader: &reader)
        })
    default:
      return value
    }
  }

  static func value(at parts: [String], in json: JSONValue) -> JSONValue? {
    var current: JSONValue? = json
    for part in parts { current = current?[part] }
    return current == .null ? nil : current
  }

  private static func setting(_ value: JSONValue, at parts: [String], in members: [String: JSONValue])
    -> [String: JSONValue]
  {
    guard let first = parts.first else { return members }
    var out = members
    if parts.count == 1 {
      out[first] = value
    } else {
      var inner: [String: JSONValue] = [:]
      if case .object(let existing)? = members[first] { inner = existing }
      out[first] = .object(setting(value, at: Array(parts.dropFirst()), in: inner))
    }
    return out
  }
}
