/// The forum's character set. Pages go out in windows-1252 with anything else as `&#N;`; form posts come in
/// windows-1252 with the client's `&#N;` entities for characters outside it.
enum Windows1252 {
  /// Unicode scalars of bytes 0x80…0x9F (nil where windows-1252 has no character).
  private static let highTable: [UInt32?] = [
    0x20AC, nil, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, nil,
    0x017D, nil, nil, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
    0x0153, nil, 0x017E, 0x0178,
  ]

  private static let reverseTable: [UInt32: UInt8] = {
    var table: [UInt32: UInt8] = [:]
    for (offset, scalar) in highTable.enumerated() {
      if let scalar { table[scalar] = UInt8(0x80 + offset) }
    }
    return table
  }()

  /// Encodes text for an HTML page: characters outside windows-1252 become decimal entities.
  static func encodeHTML(_ text: String) -> [UInt8] {
    // Most pages are plain ASCII, where the UTF-8 bytes are the windows-1252 bytes: copied at once, not scalar by
    // scalar.
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return Array(text.utf8) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      let value = scalar.value
      if value < 0x80 || (0xA0...0xFF).contains(value) {
        bytes.append(UInt8(value))
      } else if let byte = reverseTable[value] {
        bytes.append(byte)
      } else {
        bytes.append(contentsOf: Array("&#\(value);".utf8))
      }
    }
    return bytes
  }

  /// Decodes windows-1252 bytes. Bytes with no character map to the C1 control of the same value, as browsers do.
  static func decode(_ bytes: some Sequence<UInt8>) -> String {
    var scalars = String.UnicodeScalarView()
    for byte in bytes {
      if (0x80...0x9F).contains(byte), let mapped = highTable[Int(byte - 0x80)], let scalar = Unicode.Scalar(mapped) {
        scalars.append(scalar)
      } else {
        scalars.append(Unicode.Scalar(byte))
      }
    }
    return String(scalars)
  }

  /// Turns the `&#N;` / `&#xH;` entities a client sends for characters outside windows-1252 back into text.
  static func decodeNumericEntities(_ text: String) -> String {
    guard text.contains("&#") else { return text }
    var result = String.UnicodeScalarView()
    let scalars = Array(text.unicodeScalars)
    var i = 0
    while i < scalars.count {
      if scalars[i] == "&", i + 2 < scalars.count, scalars[i + 1] == "#",
        let (scalar, length) = numericEntity(scalars, at: i)
      {
        result.append(scalar)
        i += length
      } else {
        result.append(scalars[i])
        i += 1
      }
    }
    return String(result)
  }

  private static func numericEntity(_ scalars: [Unicode.Scalar], at start: Int) -> (Unicode.Scalar, Int)? {
    var j = start + 2
    var hex = false
    if j < scalars.count, scalars[j] == "x" || scalars[j] == "X" {
      hex = true
      j += 1
    }
    var digits = ""
    while j < scalars.count, digits.count < 8,
      hex ? scalars[j].properties.isASCIIHexDigit : ("0"..."9").contains(scalars[j])
    {
      digits.unicodeScalars.append(scalars[j])
      j += 1
    }
    guard !digits.isEmpty, j < scalars.count, scalars[j] == ";",
      let value = UInt32(digits, radix: hex ? 16 : 10), let scalar = Unicode.Scalar(value)
    else { return nil }
    return (scalar, j + 1 - start)
  }
}
