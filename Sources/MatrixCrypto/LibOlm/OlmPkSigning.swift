import CLibOlm

/// An ed25519 signing key from a 32-byte seed (libolm's `OlmPkSigning`): the cross-signing keys (master,
/// self-signing, user-signing). The seed is the private key; it goes into secret storage and never into a log.
final class OlmPkSigning {
  private let memory: OlmMemory
  private let pointer: OpaquePointer
  /// The public key, unpadded base64.
  let publicKey: String

  /// The key for `seed` (`seedLength` bytes).
  init(seed: [UInt8]) throws {
    memory = OlmMemory(size: olm_pk_signing_size())
    pointer = olm_pk_signing(memory.raw)
    var seed = seed
    var key = [UInt8](repeating: 0, count: olm_pk_signing_public_key_length())
    let result = olm_pk_signing_key_from_seed(pointer, &key, key.count, &seed, seed.count)
    guard result != OlmError.failure else {
      let reason = String(cString: olm_pk_signing_last_error(pointer))
      olm_clear_pk_signing(pointer)
      throw OlmError(operation: "signing key from seed", reason: reason)
    }
    publicKey = OlmError.string(key, count: key.count)
  }

  deinit { olm_clear_pk_signing(pointer) }

  static var seedLength: Int { olm_pk_signing_seed_length() }

  /// A fresh random seed.
  static func generateSeed() -> [UInt8] { OlmError.randomBytes(seedLength) }

  /// An ed25519 signature (unpadded base64) over `message`.
  func sign(_ message: String) throws -> String {
    let bytes = OlmError.bytes(message)
    var signature = [UInt8](repeating: 0, count: olm_pk_signature_length())
    let length = olm_pk_sign(pointer, bytes, bytes.count, &signature, signature.count)
    guard length != OlmError.failure else {
      throw OlmError(operation: "sign", reason: String(cString: olm_pk_signing_last_error(pointer)))
    }
    return OlmError.string(signature, count: signature.count)
  }
}
