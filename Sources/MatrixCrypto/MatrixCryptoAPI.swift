import ChatBridge
import MatrixModel

/// The endpoints the crypto needs, called through the transport (token, re-login and rate limits handled there).
package struct MatrixCryptoAPI: Sendable {
  /// Runs an authorised `/_matrix/client/v3/…` call and returns its JSON body.
  let call: @Sendable (_ method: MatrixRequest.Method, _ path: [String], _ body: JSONValue?) async throws -> JSONValue

  package init(
    call:
      @escaping @Sendable (_ method: MatrixRequest.Method, _ path: [String], _ body: JSONValue?) async throws
      -> JSONValue
  ) {
    self.call = call
  }

  func uploadKeys(_ body: JSONValue) async throws -> JSONValue {
    try await call(.post, ["keys", "upload"], body)
  }

  /// Publishes the cross-signing keys. The homeserver may ask for user-interactive auth (always when keys are
  /// replaced): `password` answers it with `m.login.password`; without one the call fails naming what is missing.
  func uploadSigningKeys(_ body: [String: JSONValue], localpart: String, password: String?) async throws {
    do {
      _ = try await call(.post, ["keys", "device_signing", "upload"], .object(body))
    } catch MatrixClientError.api(let error) where error.needsInteractiveAuth {
      guard let password, !password.isEmpty else { throw MatrixCrossSigningError.passwordNeeded }
      guard error.authFlows.isEmpty || error.authFlows.contains([MatrixLoginType.password]) else {
        throw MatrixCrossSigningError.unsupportedAuth(error.authFlows.map { $0.joined(separator: " + ") })
      }
      var answered = body
      answered["auth"] = [
        "type": .string(MatrixLoginType.password), "session": .string(error.authSession ?? ""),
        "identifier": ["type": .string(MatrixLoginType.userIdentifier), "user": .string(localpart)],
        "password": .string(password),
      ]
      do {
        _ = try await call(.post, ["keys", "device_signing", "upload"], .object(answered))
      } catch MatrixClientError.api(let error) where error.status == 401 || error.isForbidden {
        throw MatrixCrossSigningError.passwordRefused(error.description)
      }
    }
  }

  /// Publishes signatures: `{user: {device id or master key: the signed object}}`.
  func uploadSignatures(_ body: [String: JSONValue]) async throws {
    let answer = try await call(.post, ["keys", "signatures", "upload"], .object(body))
    if let failures = answer["failures"]?.objectValue, !failures.isEmpty {
      throw MatrixEncryptionError("the homeserver refused a signature: \(CanonicalJSON.string(.object(failures)))")
    }
  }

  /// The user's account data of `type` read as `Content`, nil when there is none (or it is not an object).
  func accountData<Content: Decodable>(user: String, type: String, as content: Content.Type) async throws -> Content? {
    do {
      return try await call(.get, ["user", user, "account_data", type], nil).decoded(as: Content.self)
    } catch MatrixClientError.api(let error) where error.status == 404 {
      return nil
    }
  }

  func setAccountData(user: String, type: String, content: some Encodable) async throws {
    _ = try await call(.put, ["user", user, "account_data", type], try JSONValue.encoding(content))
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
  func encryptionSettings(room: String) async -> MatrixRoomEncryption? {
    (try? await call(.get, ["rooms", room, "state", MatrixEventType.roomEncryption, ""], nil))?
      .decoded(as: MatrixRoomEncryption.self)
  }

  /// The room's `m.room.history_visibility` (`shared`, `invited`, `joined`, `world_readable`); nil when it cannot
  /// be read.
  func historyVisibility(room: String) async -> String? {
    (try? await call(.get, ["rooms", room, "state", MatrixEventType.historyVisibility, ""], nil))?
      .decoded(as: MatrixHistoryVisibility.self)?.historyVisibility
  }
}
