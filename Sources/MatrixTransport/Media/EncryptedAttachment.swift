import ChatBridge
import Crypto
import CryptoExtras
import Foundation
import MatrixCrypto

/// A file for an encrypted room, as the spec's "sending encrypted attachments" defines it: AES-256-CTR under a random
/// key and a random 64-bit IV (the counter half zero), the SHA-256 of the ciphertext, and the key as a JWK. Only the
/// ciphertext goes to the homeserver; the key travels inside the encrypted event.
package struct EncryptedAttachment: Sendable {
  var ciphertext: [UInt8]
  var key: SymmetricKey
  var iv: [UInt8]

  /// Encrypts `plaintext` under a fresh key and IV.
  static func encrypt(_ plaintext: [UInt8]) throws -> EncryptedAttachment {
    let key = SymmetricKey(size: .bits256)
    var iv = [UInt8](repeating: 0, count: 16)
    for index in 0..<8 { iv[index] = UInt8.random(in: 0...255) }
    let ciphertext = try AES._CTR.encrypt(plaintext, using: key, nonce: try AES._CTR.Nonce(nonceBytes: iv))
    return EncryptedAttachment(ciphertext: Array(ciphertext), key: key, iv: iv)
  }

  /// Decrypts a `file` object's ciphertext after checking its hash (what a client does; the tests use it).
  package static func decrypt(_ ciphertext: [UInt8], file: JSONValue) throws -> [UInt8] {
    guard let keyText = file["key"]?["k"]?.stringValue, let key = Self.base64URLDecoded(keyText),
      let ivText = file["iv"]?.stringValue, let iv = Data(base64Encoded: Self.padded(ivText)),
      let hash = file["hashes"]?["sha256"]?.stringValue
    else { throw MatrixEncryptionError("the attachment's file object is incomplete") }
    guard Self.unpadded(Data(SHA256.hash(data: ciphertext)).base64EncodedString()) == hash else {
      throw MatrixEncryptionError("the attachment's ciphertext does not match its hash")
    }
    return Array(
      try AES._CTR.decrypt(ciphertext, using: SymmetricKey(data: key), nonce: try AES._CTR.Nonce(nonceBytes: iv)))
  }

  /// The `file` object of an `m.image` event once the ciphertext is at `url` (an `mxc://` URI).
  func fileObject(url: String) -> JSONValue {
    let keyBytes = key.withUnsafeBytes { Data($0) }
    return [
      "url": .string(url),
      "key": [
        "kty": "oct", "key_ops": ["encrypt", "decrypt"], "alg": "A256CTR",
        "k": .string(Self.base64URL(keyBytes)), "ext": true,
      ],
      "iv": .string(Self.unpadded(Data(iv).base64EncodedString())),
      "hashes": ["sha256": .string(Self.unpadded(Data(SHA256.hash(data: ciphertext)).base64EncodedString()))],
      "v": "v2",
    ]
  }

  static func unpadded(_ base64: String) -> String { String(base64.prefix { $0 != "=" }) }

  static func padded(_ base64: String) -> String {
    base64 + String(repeating: "=", count: (4 - base64.count % 4) % 4)
  }

  static func base64URL(_ data: Data) -> String {
    unpadded(data.base64EncodedString()).replacingOccurrences(of: "+", with: "-").replacingOccurrences(
      of: "/", with: "_")
  }

  static func base64URLDecoded(_ text: String) -> Data? {
    Data(base64Encoded: padded(text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")))
  }
}
