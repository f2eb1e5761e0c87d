import CLibOlm
import Foundation

/// The bot device's long-term Olm identity (curve25519 + ed25519) and its one-time keys. Not thread-safe: owned by
/// the crypto machine actor.
final class OlmAccount: OlmPickled {
  private let memory: OlmMemory
  let pointer: OpaquePointer

  private init() {
    memory = OlmMemory(size: olm_account_size())
    pointer = olm_account(memory.raw)
  }

  deinit { olm_clear_account(pointer) }

  /// A new account with fresh identity keys.
  static func create() throws -> OlmAccount {
    let account = OlmAccount()
    var random = OlmError.randomBytes(olm_create_account_random_length(account.pointer))
    try account.check("create account", olm_create_account(account.pointer, &random, random.count))
    return account
  }

  static func blank() -> OlmAccount { OlmAccount() }
  static let kind = "account"
  static func pickleLength(_ object: OpaquePointer) -> Int { olm_pickle_account_length(object) }
  static func pickle(_ object: OpaquePointer, _ key: [UInt8], _ buffer: inout [UInt8]) -> Int {
    olm_pickle_account(object, key, key.count, &buffer, buffer.count)
  }
  static func unpickle(_ object: OpaquePointer, _ key: [UInt8], _ buffer: inout [UInt8]) -> Int {
    olm_unpickle_account(object, key, key.count, &buffer, buffer.count)
  }

  /// `{"curve25519": "…", "ed25519": "…"}` (unpadded base64).
  func identityKeys() throws -> (curve25519: String, ed25519: String) {
    var buffer = [UInt8](repeating: 0, count: olm_account_identity_keys_length(pointer))
    let length = olm_account_identity_keys(pointer, &buffer, buffer.count)
    try check("identity keys", length)
    let keys = try JSONDecoder().decode([String: String].self, from: Data(buffer.prefix(length)))
    guard let curve = keys["curve25519"], let ed = keys["ed25519"] else {
      throw OlmError(operation: "identity keys", reason: "missing key")
    }
    return (curve, ed)
  }

  /// An ed25519 signature (unpadded base64) over `message`.
  func sign(_ message: String) throws -> String {
    let bytes = OlmError.bytes(message)
    var signature = [UInt8](repeating: 0, count: olm_account_signature_length(pointer))
    let length = olm_account_sign(pointer, bytes, bytes.count, &signature, signature.count)
    try check("sign", length)
    return OlmError.string(signature, count: length)
  }

  var maxOneTimeKeys: Int { olm_account_max_number_of_one_time_keys(pointer) }

  func generateOneTimeKeys(_ count: Int) throws {
    var random = OlmError.randomBytes(olm_account_generate_one_time_keys_random_length(pointer, count))
    try check("generate one-time keys", olm_account_generate_one_time_keys(pointer, count, &random, random.count))
  }

  /// Unpublished one-time keys: key id → curve25519 key.
  func oneTimeKeys() throws -> [String: String] {
    var buffer = [UInt8](repeating: 0, count: olm_account_one_time_keys_length(pointer))
    let length = olm_account_one_time_keys(pointer, &buffer, buffer.count)
    try check("one-time keys", length)
    let keys = try JSONDecoder().decode([String: [String: String]].self, from: Data(buffer.prefix(length)))
    return keys["curve25519"] ?? [:]
  }

  func markKeysAsPublished() {
    _ = olm_account_mark_keys_as_published(pointer)
  }

  /// Makes a new fallback key (used when the one-time keys run out); libolm keeps the one before it until
  /// `forgetOldFallbackKey`, so a message sent to it in the meantime still opens.
  func generateFallbackKey() throws {
    var random = OlmError.randomBytes(olm_account_generate_fallback_key_random_length(pointer))
    try check("generate fallback key", olm_account_generate_fallback_key(pointer, &random, random.count))
  }

  /// The fallback key not yet published: key id → curve25519 key (empty once published).
  func unpublishedFallbackKey() throws -> [String: String] {
    var buffer = [UInt8](repeating: 0, count: olm_account_unpublished_fallback_key_length(pointer))
    let length = olm_account_unpublished_fallback_key(pointer, &buffer, buffer.count)
    try check("fallback key", length)
    let keys = try JSONDecoder().decode([String: [String: String]].self, from: Data(buffer.prefix(length)))
    return keys["curve25519"] ?? [:]
  }

  func forgetOldFallbackKey() {
    olm_account_forget_old_fallback_key(pointer)
  }

  /// Forgets the one-time key an inbound session was created from, so it is never used twice.
  func removeOneTimeKeys(for session: OlmSession) throws {
    try check("remove one-time keys", olm_remove_one_time_keys(pointer, session.pointer))
  }

  func check(_ operation: String, _ result: Int) throws {
    guard result == OlmError.failure else { return }
    throw OlmError(operation: operation, reason: String(cString: olm_account_last_error(pointer)))
  }
}
