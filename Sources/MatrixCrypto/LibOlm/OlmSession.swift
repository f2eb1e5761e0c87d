import CLibOlm

/// One Olm (double ratchet) session with another device. Not thread-safe: owned by the crypto machine actor.
final class OlmSession: OlmPickled {
  private let memory: OlmMemory
  let pointer: OpaquePointer

  private init() {
    memory = OlmMemory(size: olm_session_size())
    pointer = olm_session(memory.raw)
  }

  deinit { olm_clear_session(pointer) }

  /// A session to a device from its identity key and one of its claimed one-time keys.
  static func outbound(account: OlmAccount, theirIdentityKey: String, theirOneTimeKey: String) throws -> OlmSession {
    let session = OlmSession()
    let identity = OlmError.bytes(theirIdentityKey)
    let oneTime = OlmError.bytes(theirOneTimeKey)
    var random = OlmError.randomBytes(olm_create_outbound_session_random_length(session.pointer))
    try session.check(
      "create outbound session",
      olm_create_outbound_session(
        session.pointer, account.pointer, identity, identity.count, oneTime, oneTime.count, &random, random.count))
    return session
  }

  /// A session started by the other device with a pre-key message (type 0).
  static func inbound(account: OlmAccount, theirIdentityKey: String, preKeyMessage: String) throws -> OlmSession {
    let session = OlmSession()
    let identity = OlmError.bytes(theirIdentityKey)
    var message = OlmError.bytes(preKeyMessage)
    try session.check(
      "create inbound session",
      olm_create_inbound_session_from(
        session.pointer, account.pointer, identity, identity.count, &message, message.count))
    return session
  }

  static func blank() -> OlmSession { OlmSession() }
  static let kind = "session"
  static func pickleLength(_ object: OpaquePointer) -> Int { olm_pickle_session_length(object) }
  static func pickle(_ object: OpaquePointer, _ key: [UInt8], _ buffer: inout [UInt8]) -> Int {
    olm_pickle_session(object, key, key.count, &buffer, buffer.count)
  }
  static func unpickle(_ object: OpaquePointer, _ key: [UInt8], _ buffer: inout [UInt8]) -> Int {
    olm_unpickle_session(object, key, key.count, &buffer, buffer.count)
  }

  var id: String {
    var buffer = [UInt8](repeating: 0, count: olm_session_id_length(pointer))
    let length = olm_session_id(pointer, &buffer, buffer.count)
    return length == OlmError.failure ? "" : OlmError.string(buffer, count: length)
  }

  /// Whether a pre-key message was made for this session (then decrypting it here keeps the ratchet in step).
  func matchesInbound(theirIdentityKey: String, preKeyMessage: String) -> Bool {
    let identity = OlmError.bytes(theirIdentityKey)
    var message = OlmError.bytes(preKeyMessage)
    return olm_matches_inbound_session_from(pointer, identity, identity.count, &message, message.count) == 1
  }

  /// Encrypts; returns the message type (0 pre-key, 1 normal) and the base64 body.
  func encrypt(_ plaintext: String) throws -> (type: Int, body: String) {
    let type = olm_encrypt_message_type(pointer)
    let bytes = OlmError.bytes(plaintext)
    var random = OlmError.randomBytes(olm_encrypt_random_length(pointer))
    var message = [UInt8](repeating: 0, count: olm_encrypt_message_length(pointer, bytes.count))
    let length = olm_encrypt(pointer, bytes, bytes.count, &random, random.count, &message, message.count)
    try check("encrypt", length)
    return (type, OlmError.string(message, count: length))
  }

  func decrypt(type: Int, body: String) throws -> String {
    var probe = OlmError.bytes(body)
    let maximum = olm_decrypt_max_plaintext_length(pointer, type, &probe, probe.count)
    try check("decrypt", maximum)
    var message = OlmError.bytes(body)
    var plaintext = [UInt8](repeating: 0, count: maximum)
    let length = olm_decrypt(pointer, type, &message, message.count, &plaintext, plaintext.count)
    try check("decrypt", length)
    return OlmError.string(plaintext, count: length)
  }

  func check(_ operation: String, _ result: Int) throws {
    guard result == OlmError.failure else { return }
    throw OlmError(operation: operation, reason: String(cString: olm_session_last_error(pointer)))
  }
}
