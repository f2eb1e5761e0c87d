import Crypto
import CryptoExtras
import Foundation
import MatrixModel

/// `m.secret_storage.v1.aes-hmac-sha2` (spec: "Secret storage"): a secret encrypted under the 32-byte storage key
/// for one name. HKDF-SHA256 (zero salt, the name as info) gives an AES-256 key and an HMAC-SHA256 key; the secret is
/// encrypted with AES-CTR under a random IV whose bit 63 is clear, and MACed. Only swift-crypto's primitives.
enum SecretStorageCipher {
  static let algorithm = MatrixAlgorithm.secretStorage

  typealias Encrypted = MatrixEncryptedSecret

  /// Why a stored secret did not open.
  struct Failure: Error, Sendable, CustomStringConvertible {
    var description: String
  }

  static func encrypt(_ plaintext: [UInt8], name: String, key: [UInt8], iv: [UInt8]? = nil) throws -> Encrypted {
    let iv = iv ?? freshIV()
    let (aesKey, macKey) = derive(key: key, name: name)
    let ciphertext = try AES._CTR.encrypt(plaintext, using: aesKey, nonce: try AES._CTR.Nonce(nonceBytes: iv))
    let mac = HMAC<SHA256>.authenticationCode(for: ciphertext, using: macKey)
    return Encrypted(iv: Base64.padded(iv), ciphertext: Base64.padded(ciphertext), mac: Base64.padded(Array(mac)))
  }

  static func decrypt(_ encrypted: Encrypted, name: String, key: [UInt8]) throws -> [UInt8] {
    guard let iv = Base64.decode(encrypted.iv), iv.count == 16, let ciphertext = Base64.decode(encrypted.ciphertext),
      let mac = Base64.decode(encrypted.mac)
    else { throw Failure(description: "the stored secret \(name) is not valid base64") }
    let (aesKey, macKey) = derive(key: key, name: name)
    guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: ciphertext, using: macKey) else {
      throw Failure(description: "the stored secret \(name) does not open with this key (its MAC differs)")
    }
    return Array(try AES._CTR.decrypt(ciphertext, using: aesKey, nonce: try AES._CTR.Nonce(nonceBytes: iv)))
  }

  /// The `iv` and `mac` a key description carries: 32 zero bytes encrypted under the name "", so a client can tell
  /// whether a key it is given is the right one before it tries any secret.
  static func keyCheck(key: [UInt8], iv: [UInt8]? = nil) throws -> (iv: String, mac: String) {
    let check = try encrypt([UInt8](repeating: 0, count: 32), name: "", key: key, iv: iv)
    return (check.iv, check.mac)
  }

  /// Whether `key` is the key a description's `iv`/`mac` were made with.
  static func matches(key: [UInt8], iv: String, mac: String) -> Bool {
    guard let ivBytes = Base64.decode(iv), ivBytes.count == 16,
      let check = try? keyCheck(key: key, iv: ivBytes), let expected = Base64.decode(mac)
    else { return false }
    return Base64.decode(check.mac) == expected
  }

  private static func derive(key: [UInt8], name: String) -> (aes: SymmetricKey, mac: SymmetricKey) {
    let derived = HKDF<SHA256>.deriveKey(
      inputKeyMaterial: SymmetricKey(data: key), salt: [UInt8](repeating: 0, count: 32), info: Array(name.utf8),
      outputByteCount: 64)
    let bytes = derived.withUnsafeBytes { Array($0) }
    return (SymmetricKey(data: bytes[0..<32]), SymmetricKey(data: bytes[32..<64]))
  }

  /// 16 random bytes with bit 63 clear, so the counter never carries into the IV's first half.
  private static func freshIV() -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    var iv = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    iv[8] &= 0x7F
    return iv
  }
}
