import ChatBridge

/// The endpoints the crypto needs, called through the transport (token, re-login and rate limits handled there).
struct MatrixCryptoAPI: Sendable {
  /// Runs an authorised `/_matrix/client/v3/…` call and returns its JSON body.
  let call: @Sendable (_ method: MatrixRequest.Method, _ path: [String], _ body: JSONValue?) async throws -> JSONValue

  func uploadKeys(_ body: JSONValue) async throws -> JSONValue {
    try await call(.post, ["keys", "upload"], body)
  }

  func queryKeys(users: [String]) async throws -> JSONValue {
    let wanted = Dictionary(uniqueKeysWithValues: users.map { ($0, JSONValue.array([])) })
    return try await call(.post, ["keys", "query"], ["device_keys": .object(wanted), "timeout": 10000])
  }

  /// One signed curve25519 one-time key per device.
  func claimKeys(_ devices: [String: [String]]) async throws -> JSONValue {
    let wanted = devices.mapValues { ids in
      JSONValue.object(Dictionary(uniqueKeysWithValues: ids.map { ($0, JSONValue.string("signed_curve25519")) }))
    }
    return try await call(.post, ["keys", "claim"], ["one_time_keys": .object(wanted), "timeout": 10000])
  }

  func sendToDevice(type: String, transactionID: String, messages: [String: [String: JSONValue]]) async throws {
    _ = try await call(
      .put, ["sendToDevice", type, transactionID], ["messages": .object(messages.mapValues { .object($0) })])
  }

  func joinedMembers(room: String) async throws -> [String] {
    let answer = try await call(.get, ["rooms", room, "joined_members"], nil)
    return (answer["joined"]?.objectValue ?? [:]).keys.sorted()
  }

  /// The room's `m.room.encryption` content (rotation periods), or nil.
  func encryptionSettings(room: String) async -> JSONValue? {
    try? await call(.get, ["rooms", room, "state", "m.room.encryption", ""], nil)
  }
}
