import CLibOlm

/// The sending side of a room's Megolm session. Not thread-safe: owned by the crypto machine actor.
final class MegolmOutboundSession: OlmPickled {
  private let memory: OlmMemory
  let pointer: OpaquePointer

  private init() {
    memory = OlmMemory(size: olm_outbound_group_session_size())
    pointer = olm_outbound_group_session(memory.raw)
  }

  deinit { olm_clear_outbound_group_session(pointer) }

  static func create() throws -> MegolmOutboundSession {
    let session = MegolmOutboundSession()
    var random = OlmError.randomBytes(olm_init_outbound_group_session_random_length(session.pointer))
    try session.check("create group session", olm_init_outbound_group_session(session.pointer, &random, random.count))
    return session
  }

  static func blank() -> MegolmOutboundSession { MegolmOutboundSession() }
  static let kind = "group session"
  static func pickleLength(_ object: OpaquePointer) -> Int { olm_pickle_outbound_group_session_length(object) }
  static func pickle(_ object: OpaquePointer, _ key: [UInt8], _ buffer: inout [UInt8]) -> Int {
    olm_pickle_outbound_group_session(object, key, key.count, &buffer, buffer.count)
  }
  static func unpickle(_ object: OpaquePointer, _ key: [UInt8], _ buffer: inout [UInt8]) -> Int {
    olm_unpickle_outbound_group_session(object, key, key.count, &buffer, buffer.count)
  }

  var id: String {
    var buffer = [UInt8](repeating: 0, count: olm_outbound_group_session_id_length(pointer))
    let length = olm_outbound_group_session_id(pointer, &buffer, buffer.count)
    return length == OlmError.failure ? "" : OlmError.string(buffer, count: length)
  }

  /// The index the next message gets (each encryption moves it on by one).
  var messageIndex: UInt32 { olm_outbound_group_session_message_index(pointer) }

  /// The session key at the current index, for `m.room_key` (readers can decrypt from here on).
  func sessionKey() throws -> String {
    var buffer = [UInt8](repeating: 0, count: olm_outbound_group_session_key_length(pointer))
    let length = olm_outbound_group_session_key(pointer, &buffer, buffer.count)
    try check("group session key", length)
    return OlmError.string(buffer, count: length)
  }

  func encrypt(_ plaintext: String) throws -> String {
    let bytes = OlmError.bytes(plaintext)
    var message = [UInt8](repeating: 0, count: olm_group_encrypt_message_length(pointer, bytes.count))
    let length = olm_group_encrypt(pointer, bytes, bytes.count, &message, message.count)
    try check("group encrypt", length)
    return OlmError.string(message, count: length)
  }

  func check(_ operation: String, _ result: Int) throws {
    guard result == OlmError.failure else { return }
    throw OlmError(operation: operation, reason: String(cString: olm_outbound_group_session_last_error(pointer)))
  }
}

/// The reading side of someone's Megolm session in a room. Not thread-safe: owned by the crypto machine actor.
final class MegolmInboundSession: OlmPickled {
  private let memory: OlmMemory
  let pointer: OpaquePointer

  private init() {
    memory = OlmMemory(size: olm_inbound_group_session_size())
    pointer = olm_inbound_group_session(memory.raw)
  }

  deinit { olm_clear_inbound_group_session(pointer) }

  /// From an `m.room_key` session key.
  static func create(sessionKey: String) throws -> MegolmInboundSession {
    let session = MegolmInboundSession()
    let key = OlmError.bytes(sessionKey)
    try session.check("create inbound group session", olm_init_inbound_group_session(session.pointer, key, key.count))
    return session
  }

  /// From an `m.forwarded_room_key` (exported) session key.
  static func importing(exportedKey: String) throws -> MegolmInboundSession {
    let session = MegolmInboundSession()
    let key = OlmError.bytes(exportedKey)
    try session.check(
      "import inbound group session", olm_import_inbound_group_session(session.pointer, key, key.count))
    return session
  }

  static func blank() -> MegolmInboundSession { MegolmInboundSession() }
  static let kind = "inbound group session"
  static func pickleLength(_ object: OpaquePointer) -> Int { olm_pickle_inbound_group_session_length(object) }
  static func pickle(_ object: OpaquePointer, _ key: [UInt8], _ buffer: inout [UInt8]) -> Int {
    olm_pickle_inbound_group_session(object, key, key.count, &buffer, buffer.count)
  }
  static func unpickle(_ object: OpaquePointer, _ key: [UInt8], _ buffer: inout [UInt8]) -> Int {
    olm_unpickle_inbound_group_session(object, key, key.count, &buffer, buffer.count)
  }

  var id: String {
    var buffer = [UInt8](repeating: 0, count: olm_inbound_group_session_id_length(pointer))
    let length = olm_inbound_group_session_id(pointer, &buffer, buffer.count)
    return length == OlmError.failure ? "" : OlmError.string(buffer, count: length)
  }

  /// The first message index this copy can read.
  var firstKnownIndex: UInt32 { olm_inbound_group_session_first_known_index(pointer) }

  /// The session key from its first known index on, as `m.forwarded_room_key` carries it.
  func export() throws -> String {
    try export(from: olm_inbound_group_session_first_known_index(pointer))
  }

  /// The session key from `index` on (not before the first index this copy knows): what came before stays unreadable.
  func export(from requested: UInt32) throws -> String {
    let index = max(requested, olm_inbound_group_session_first_known_index(pointer))
    var buffer = [UInt8](repeating: 0, count: olm_export_inbound_group_session_length(pointer))
    let length = olm_export_inbound_group_session(pointer, &buffer, buffer.count, index)
    try check("export inbound group session", length)
    return OlmError.string(buffer, count: length)
  }

  func decrypt(_ ciphertext: String) throws -> (plaintext: String, index: UInt32) {
    var probe = OlmError.bytes(ciphertext)
    let maximum = olm_group_decrypt_max_plaintext_length(pointer, &probe, probe.count)
    try check("group decrypt", maximum)
    var message = OlmError.bytes(ciphertext)
    var plaintext = [UInt8](repeating: 0, count: maximum)
    var index: UInt32 = 0
    let length = olm_group_decrypt(pointer, &message, message.count, &plaintext, plaintext.count, &index)
    try check("group decrypt", length)
    return (OlmError.string(plaintext, count: length), index)
  }

  func check(_ operation: String, _ result: Int) throws {
    guard result == OlmError.failure else { return }
    throw OlmError(operation: operation, reason: String(cString: olm_inbound_group_session_last_error(pointer)))
  }
}

/// ed25519 signature checks (device keys, signed one-time keys).
enum OlmSignature {
  static func verify(key: String, message: String, signature: String) -> Bool {
    let memory = OlmMemory(size: olm_utility_size())
    let utility = olm_utility(memory.raw)
    defer { olm_clear_utility(utility) }
    let keyBytes = OlmError.bytes(key)
    let messageBytes = OlmError.bytes(message)
    var signatureBytes = OlmError.bytes(signature)
    return olm_ed25519_verify(
      utility, keyBytes, keyBytes.count, messageBytes, messageBytes.count, &signatureBytes, signatureBytes.count)
      != OlmError.failure
  }
}
