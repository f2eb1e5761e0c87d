/// The secret storage key as people see it (spec: "Key representation"): the bytes `0x8B 0x01`, the 32 key bytes and
/// one parity byte (the XOR of all bytes before it), in base58 with the Bitcoin alphabet, shown in groups of four.
/// Element shows and accepts keys in exactly this form.
package struct RecoveryKey: Sendable, Hashable {
  /// The 32-byte secret storage key.
  package let bytes: [UInt8]

  package init(bytes: [UInt8]) {
    precondition(bytes.count == 32, "a secret storage key has 32 bytes")
    self.bytes = bytes
  }

  /// A new random key.
  package static func generate() -> RecoveryKey {
    var generator = SystemRandomNumberGenerator()
    return RecoveryKey(bytes: (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
  }

  static let prefix: [UInt8] = [0x8B, 0x01]
  static let alphabet = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)

  /// Why a typed key is not a recovery key, as a sentence for the operator.
  package enum ParseError: Error, Sendable, Hashable, CustomStringConvertible {
    case notBase58(Character)
    case wrongLength(Int)
    case wrongPrefix
    case wrongParity

    package var description: String {
      switch self {
      case .notBase58(let character):
        "the recovery key has a character that is not in a recovery key (“\(character)”)"
      case .wrongLength(let count): "the recovery key is \(count) bytes long, not 35: part of it is missing"
      case .wrongPrefix: "this is not a Matrix recovery key (it does not start as one)"
      case .wrongParity: "the recovery key has a typo (its check byte does not match)"
      }
    }
  }

  /// Reads a key as Element shows it; spaces and line breaks anywhere are ignored.
  package init(parsing text: String) throws(ParseError) {
    var number: [UInt8] = []  // big-endian base-256 digits
    var leadingZeros = 0
    var seenOther = false
    for character in text where !character.isWhitespace {
      guard let ascii = character.asciiValue, let digit = Self.alphabet.firstIndex(of: ascii) else {
        throw .notBase58(character)
      }
      if digit == 0, !seenOther {
        leadingZeros += 1
        continue
      }
      seenOther = true
      var carry = digit
      for index in number.indices.reversed() {
        carry += Int(number[index]) * 58
        number[index] = UInt8(carry & 0xFF)
        carry >>= 8
      }
      while carry > 0 {
        number.insert(UInt8(carry & 0xFF), at: 0)
        carry >>= 8
      }
    }
    let decoded = [UInt8](repeating: 0, count: leadingZeros) + number
    guard decoded.count == 35 else { throw .wrongLength(decoded.count) }
    guard Array(decoded.prefix(2)) == Self.prefix else { throw .wrongPrefix }
    guard decoded.dropLast().reduce(0, ^) == decoded.last else { throw .wrongParity }
    bytes = Array(decoded[2..<34])
  }

  /// The key as Element shows it: base58 in groups of four characters.
  package var displayed: String {
    let raw = Self.prefix + bytes
    let full = raw + [raw.reduce(0, ^)]
    var digits: [UInt8] = []  // little-endian base-58 digits
    for byte in full {
      var carry = Int(byte)
      for index in digits.indices {
        carry += Int(digits[index]) << 8
        digits[index] = UInt8(carry % 58)
        carry /= 58
      }
      while carry > 0 {
        digits.append(UInt8(carry % 58))
        carry /= 58
      }
    }
    let zeros = full.prefix { $0 == 0 }.count
    let text =
      String(repeating: "1", count: zeros)
      + String(decoding: digits.reversed().map { Self.alphabet[Int($0)] }, as: UTF8.self)
    var groups: [Substring] = []
    var rest = Substring(text)
    while !rest.isEmpty {
      groups.append(rest.prefix(4))
      rest = rest.dropFirst(4)
    }
    return groups.joined(separator: " ")
  }
}
