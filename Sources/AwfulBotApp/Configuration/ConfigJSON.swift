import Foundation

/// A JSON value as written in the config file, kept as a tree so loading can report every problem (with its key
/// path) instead of stopping at the first one, as `JSONDecoder` would.
package enum ConfigJSON: Sendable, Hashable, Codable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([ConfigJSON])
  case object([String: ConfigJSON])

  package init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([ConfigJSON].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: ConfigJSON].self))
    }
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value):
      // Whole numbers stay integers in the written file (ports, counts).
      if value.rounded() == value, abs(value) < 1e15 {
        try container.encode(Int64(value))
      } else {
        try container.encode(value)
      }
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }

  /// What the value is, for "expected a string, got a number" messages.
  package var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "a list"
    case .object: "an object"
    }
  }

  package subscript(key: String) -> ConfigJSON? {
    if case .object(let members) = self { return members[key] }
    return nil
  }

  /// Decodes the tree into `T` (used to hand a transport's options to its own configuration type).
  package func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try JSONDecoder().decode(T.self, from: JSONEncoder().encode(self))
  }

  /// Encodes any value as a tree (used to write a configuration back out).
  package static func encoding<T: Encodable>(_ value: T) throws -> ConfigJSON {
    try JSONDecoder().decode(ConfigJSON.self, from: JSONEncoder().encode(value))
  }
}
