import CLibOlm

/// A libolm call failed; `reason` is libolm's own error name (`BAD_MESSAGE_MAC`, `OLM_BAD_ACCOUNT_KEY`…), never key
/// material.
package struct OlmError: Error, Sendable, Hashable, CustomStringConvertible {
  package var operation: String
  package var reason: String

  package var description: String { "libolm \(operation) failed: \(reason)" }

  /// libolm's error result (`(size_t)-1`).
  static let failure = olm_error()

  /// Cryptographically secure random bytes (getrandom on Linux), as libolm asks for them.
  static func randomBytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
  }

  /// Copies a Swift string into a mutable byte buffer (libolm overwrites some of its inputs).
  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  static func string(_ bytes: [UInt8], count: Int) -> String {
    String(decoding: bytes.prefix(count), as: UTF8.self)
  }
}

/// Owns the memory libolm keeps one object in; the object is cleared (keys wiped) and freed on deinit.
final class OlmMemory {
  let raw: UnsafeMutableRawPointer

  init(size: Int) {
    raw = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
  }

  deinit { raw.deallocate() }
}
