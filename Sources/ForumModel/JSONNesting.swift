import Foundation

/// How deep outside JSON may nest before it is refused unread.
///
/// Foundation's parser (FoundationEssentials' `JSONScanner`, Swift 6.3) traps, instead of throwing, on input nested
/// more than 512 levels that ends right at that depth: 513 `[` stop the process
/// (`Tests/MatrixTransportTests/FuzzRegressions/matrixerror/crash-899f…`, found by the `matrixerror` fuzz target).
/// A homeserver, Discord or the forum could send that in any answer, and a sync answer would come again after every
/// restart. Every decode of outside JSON asks `isShallow` first; no real answer nests more than a few dozen levels.
package enum JSONNesting {
  package static let limit = 128

  /// The error a decode of outside JSON throws when the bytes nest too deep to be given to the parser.
  package struct TooDeep: Error, CustomStringConvertible, Sendable {
    package init() {}
    package var description: String { "JSON nested more than \(JSONNesting.limit) levels deep" }
  }

  /// Whether `bytes` nest arrays and objects at most `limit` deep (brackets inside strings do not count). Does not
  /// check that the JSON is valid: the parser does that, once this says it may.
  package static func isShallow<Bytes: Sequence>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
    var depth = 0
    var inString = false
    var escaped = false
    for byte in bytes {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        if depth > limit { return false }
      case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
      default: break
      }
    }
    return true
  }

  /// `JSONDecoder().decode`, for bytes from outside: refuses what nests too deep (`TooDeep`) before parsing.
  package static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    guard isShallow(data) else { throw TooDeep() }
    return try JSONDecoder().decode(T.self, from: data)
  }
}
