/// The forum reads and writes windows-1252. Forms must be sent in it, so every character it cannot represent is
/// sent as an HTML numeric entity (`&#128512;`), which the forum stores and renders as the original character.
package enum Windows1252 {
  /// The byte for `scalar` in windows-1252, or nil when windows-1252 has no such character.
  package static func byte(for scalar: Unicode.Scalar) -> UInt8? {
    let value = scalar.value
    // ASCII and the Latin-1 upper half map to themselves; 0x80–0x9F holds the typographic extras instead of C1 controls.
    if value < 0x80 || (0xA0...0xFF).contains(value) {
      return UInt8(value)
    }
    return extrasByScalar[value]
  }

  /// `string` with every character outside windows-1252 replaced by `&#N;` (N the decimal Unicode scalar value).
  package static func escaped(_ string: String) -> String {
    var result = ""
    result.unicodeScalars.reserveCapacity(string.unicodeScalars.count)
    for scalar in string.unicodeScalars {
      if byte(for: scalar) != nil {
        result.unicodeScalars.append(scalar)
      } else {
        result += "&#\(scalar.value);"
      }
    }
    return result
  }

  /// The windows-1252 bytes of `string`, escaping what windows-1252 cannot represent (see `escaped`).
  package static func encode(_ string: String) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(string.utf8.count)
    for scalar in string.unicodeScalars {
      if let byte = byte(for: scalar) {
        bytes.append(byte)
      } else {
        bytes.append(contentsOf: Array("&#\(scalar.value);".utf8))
      }
    }
    return bytes
  }

  /// The 27 characters windows-1252 puts in 0x80–0x9F (0x81, 0x8D, 0x8F, 0x90 and 0x9D are unassigned).
  private static let extrasByScalar: [UInt32: UInt8] = [
    0x20AC: 0x80, 0x201A: 0x82, 0x0192: 0x83, 0x201E: 0x84, 0x2026: 0x85, 0x2020: 0x86, 0x2021: 0x87,
    0x02C6: 0x88, 0x2030: 0x89, 0x0160: 0x8A, 0x2039: 0x8B, 0x0152: 0x8C, 0x017D: 0x8E, 0x2018: 0x91,
    0x2019: 0x92, 0x201C: 0x93, 0x201D: 0x94, 0x2022: 0x95, 0x2013: 0x96, 0x2014: 0x97, 0x02DC: 0x98,
    0x2122: 0x99, 0x0161: 0x9A, 0x203A: 0x9B, 0x0153: 0x9C, 0x017E: 0x9E, 0x0178: 0x9F,
  ]
}
