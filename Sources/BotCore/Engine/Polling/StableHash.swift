/// A 128-bit hash of text fields, as 32 hex digits, stable across runs and platforms (unlike `Hasher`): what names
/// forum content that has no id of its own (announcements, Leper's Colony entries) in the store.
enum StableHash {
  /// The fields joined with U+001F (a separator no field holds), hashed by two FNV-1a passes with different offset
  /// bases: collisions are not a practical concern for the few thousand items the bot ever records, and it needs no
  /// crypto library.
  static func of(_ fields: [String]) -> String {
    let bytes = Array(fields.joined(separator: "\u{1F}").utf8)
    return hex(fnv1a(bytes, basis: 0xcbf2_9ce4_8422_2325)) + hex(fnv1a(bytes, basis: 0x8422_2325_cbf2_9ce4))
  }

  private static func fnv1a(_ bytes: [UInt8], basis: UInt64) -> UInt64 {
    var hash = basis
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01B3
    }
    return hash
  }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
