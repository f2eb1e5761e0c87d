/// HMAC-SHA1, for Synapse's shared-secret registration (`/_synapse/admin/v1/register` wants an HMAC-SHA1 of the
/// nonce, user, password and admin flag). Linux has no CryptoKit and the package has no crypto dependency; this is
/// test support only, never used for anything secret.
enum HMACSHA1 {
  static func hex(key: [UInt8], message: [UInt8]) -> String {
    authenticationCode(key: key, message: message).map { byte in
      let hex = String(byte, radix: 16)
      return hex.count == 1 ? "0" + hex : hex
    }.joined()
  }

  static func authenticationCode(key: [UInt8], message: [UInt8]) -> [UInt8] {
    let blockSize = 64
    var key = key.count > blockSize ? sha1(key) : key
    key += [UInt8](repeating: 0, count: blockSize - key.count)
    let inner = key.map { $0 ^ 0x36 }
    let outer = key.map { $0 ^ 0x5c }
    return sha1(outer + sha1(inner + message))
  }

  static func sha1(_ message: [UInt8]) -> [UInt8] {
    var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
    var data = message
    let bitLength = UInt64(message.count) * 8
    data.append(0x80)
    while data.count % 64 != 56 { data.append(0) }
    for shift in stride(from: 56, through: 0, by: -8) {
      data.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
    }
    for chunk in stride(from: 0, to: data.count, by: 64) {
      var w = [UInt32](repeating: 0, count: 80)
      for i in 0..<16 {
        let b = chunk + i * 4
        w[i] = UInt32(data[b]) << 24 | UInt32(data[b + 1]) << 16 | UInt32(data[b + 2]) << 8 | UInt32(data[b + 3])
      }
      for i in 16..<80 {
        let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
        w[i] = (x << 1) | (x >> 31)
      }
      var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
      for i in 0..<80 {
        let (f, k): (UInt32, UInt32) =
          switch i {
          case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
          case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
          case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
          default: (b ^ c ^ d, 0xCA62_C1D6)
          }
        let temp = ((a << 5) | (a >> 27)) &+ f &+ e &+ k &+ w[i]
        e = d
        d = c
        c = (b << 30) | (b >> 2)
        b = a
        a = temp
      }
      h[0] = h[0] &+ a
      h[1] = h[1] &+ b
      h[2] = h[2] &+ c
      h[3] = h[3] &+ d
      h[4] = h[4] &+ e
    }
    return h.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - $0 * 8)) } }
  }
}
