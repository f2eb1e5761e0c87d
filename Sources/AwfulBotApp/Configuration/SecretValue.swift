import Foundation

/// A secret in the config: a literal string, or `{"env": "NAME"}` to read it from the environment.
/// Its description never shows the value, so a secret cannot leak through logging or error messages.
package struct SecretValue: Sendable, Hashable, Codable, CustomStringConvertible {
  package enum Source: Sendable, Hashable {
    case literal(String)
    case environment(String)
  }
  package var source: Source

  package init(literal: String) { source = .literal(literal) }
  package init(environment name: String) { source = .environment(name) }

  private enum CodingKeys: String, CodingKey { case env }

  package init(from decoder: any Decoder) throws {
    if let single = try? decoder.singleValueContainer(), let literal = try? single.decode(String.self) {
      source = .literal(literal)
      return
    }
    let keyed = try decoder.container(keyedBy: CodingKeys.self)
    source = .environment(try keyed.decode(String.self, forKey: .env))
  }

  package func encode(to encoder: any Encoder) throws {
    switch source {
    case .literal(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .environment(let name):
      var keyed = encoder.container(keyedBy: CodingKeys.self)
      try keyed.encode(name, forKey: .env)
    }
  }

  /// The secret's value; nil when the environment variable is unset or empty.
  package func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
    switch source {
    case .literal(let value): value
    case .environment(let name): environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }
  }

  package var isLiteral: Bool {
    if case .literal = source { return true }
    return false
  }

  package var description: String {
    switch source {
    case .literal: "<secret>"
    case .environment(let name): "<secret from $\(name)>"
    }
  }
}
