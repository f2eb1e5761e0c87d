import ChatBridge
import ForumModel
import Foundation
import MatrixModel

/// One method per endpoint the bot uses, each a thin wrapper over `call`.
extension MatrixClient {
  /// `GET /_matrix/client/versions`: is this a Matrix homeserver at all (no token needed).
  package func versions(timeout: Duration = .seconds(15)) async throws -> MatrixVersionsResponse {
    try await call(MatrixRequest(.get, ["_matrix", "client", "versions"], timeout: timeout))
  }

  package func whoami(token: String) async throws -> MatrixWhoAmIResponse {
    try await call(.v3(.get, ["account", "whoami"], accessToken: token, timeout: .seconds(15)))
  }

  /// Password login for `user` (full id or localpart) on a fixed device, so transaction ids and the device list stay
  /// stable across restarts.
  package func login(user: String, password: String, deviceID: String, deviceName: String?) async throws
    -> MatrixLoginResponse
  {
    var body: [String: JSONValue] = [
      "type": .string(MatrixLoginType.password),
      "identifier": ["type": .string(MatrixLoginType.userIdentifier), "user": .string(user)],
      "password": .string(password),
      "device_id": .string(deviceID),
    ]
    if let deviceName { body["initial_device_display_name"] = .string(deviceName) }
    return try await call(.v3(.post, ["login"], body: .object(body), timeout: .seconds(30)))
  }

  /// `POST /logout`: ends the session of `token` and deletes its device (used by `awfulbot check` so its test login
  /// leaves nothing behind).
  package func logout(token: String) async throws {
    _ = try await call(.v3(.post, ["logout"], body: [:], accessToken: token), as: MatrixEmptyResponse.self)
  }

  /// Long-polls for events after `since` (nil: the first sync, which returns current state and recent history).
  package func sync(token: String, since: String?, filter: JSONValue, timeout: Duration) async throws
    -> MatrixSyncResponse
  {
    var query: [(name: String, value: String)] = [
      ("filter", Self.compactJSON(filter)), ("timeout", "\(timeout.wholeMilliseconds)"), ("set_presence", "offline"),
    ]
    if let since { query.append(("since", since)) }
    // The homeserver holds the request for `timeout`; allow time for a large answer on top of that.
    return try await call(.v3(.get, ["sync"], query: query, accessToken: token, timeout: timeout + .seconds(30)))
  }

  /// Joins by room id or alias (also accepts a pending invite); returns the room id. `via`: servers to join a room
  /// id through, when the bot's own homeserver is not in the room yet.
  package func join(token: String, roomIDOrAlias: String, via: [String] = []) async throws -> String {
    try await call(
      .v3(
        .post, ["join", roomIDOrAlias], query: via.map { ("server_name", $0) }, body: [:], accessToken: token),
      as: MatrixRoomIDResponse.self
    ).roomID
  }

  /// Leaves a room, or declines an invite to it.
  package func leave(token: String, roomID: String, reason: String? = nil) async throws {
    let body: JSONValue = reason.map { ["reason": .string($0)] } ?? [:]
    _ = try await call(
      .v3(.post, ["rooms", roomID, "leave"], body: body, accessToken: token), as: MatrixEmptyResponse.self)
  }

  /// `PUT /rooms/{roomId}/send/{eventType}/{txnId}`: a resend with the same transaction id (same device) returns
  /// the event id of the first send instead of creating a second event.
  /// - Parameter encoded: `content` already encoded as JSON, sent in its place (the transport prepares the next
  ///   event's body while the one before is in flight).
  package func sendEvent(
    token: String, roomID: String, type: String, transactionID: String, content: JSONValue, encoded: [UInt8]? = nil
  ) async throws -> String {
    var request = MatrixRequest.v3(
      .put, ["rooms", roomID, "send", type, transactionID], body: content, accessToken: token)
    request.encodedBody = encoded
    // The answer is an event id that comes with the head, which AsyncHTTPClient's deadline bounds.
    request.timeoutCoversBody = false
    return try await call(request, as: MatrixEventIDResponse.self).eventID
  }

  /// `PUT /rooms/{roomId}/redact/{eventId}/{txnId}`: removes an event's content (idempotent per transaction id like a
  /// send); returns the redaction's event id.
  package func redact(token: String, roomID: String, eventID: String, transactionID: String, reason: String?)
    async throws -> String
  {
    var request = MatrixRequest.v3(
      .put, ["rooms", roomID, "redact", eventID, transactionID], body: MatrixRedaction(reason: reason).json,
      accessToken: token)
    request.timeoutCoversBody = false
    return try await call(request, as: MatrixEventIDResponse.self).eventID
  }

  /// One state event (`m.room.power_levels` with state key ""): its content, or with `format: "event"` the
  /// whole event (sender included).
  package func stateEvent(token: String, roomID: String, type: String, stateKey: String = "", format: String? = nil)
    async throws -> JSONValue
  {
    try await call(
      .v3(
        .get, ["rooms", roomID, "state", type, stateKey], query: format.map { [("format", $0)] } ?? [],
        accessToken: token))
  }

  /// Resolves `#alias:server` to a room id (the spec does not require a token here; nil sends none).
  package func resolveAlias(token: String?, alias: String, timeout: Duration = .seconds(30)) async throws -> String {
    try await call(
      .v3(.get, ["directory", "room", alias], accessToken: token, timeout: timeout), as: MatrixRoomIDResponse.self
    )
    .roomID
  }

  package func joinedRooms(token: String) async throws -> [String] {
    try await call(.v3(.get, ["joined_rooms"], accessToken: token), as: MatrixJoinedRoomsResponse.self).joinedRooms
  }

  /// Uploads a file to the homeserver's media repository (`POST /_matrix/media/v3/upload`); returns its `mxc://` URI.
  package func upload(token: String, bytes: [UInt8], contentType: String, filename: String) async throws -> String {
    var request = MatrixRequest(
      .post, ["_matrix", "media", "v3", "upload"], query: [("filename", filename)], accessToken: token,
      timeout: .seconds(60))
    request.encodedBody = bytes
    request.contentType = contentType
    let answer = try await call(request, as: JSONValue.self)
    guard let uri = answer["content_uri"]?.stringValue, uri.hasPrefix("mxc://") else {
      throw MatrixClientError.invalidResponse("the upload answered no mxc:// URI")
    }
    return uri
  }

  /// The user ids of a room's joined members (the account must be in the room).
  package func joinedMembers(token: String, roomID: String) async throws -> [String] {
    try await call(
      .v3(.get, ["rooms", roomID, "joined_members"], accessToken: token), as: MatrixJoinedMembersResponse.self
    )
    .joined.keys.sorted()
  }

  static func compactJSON(_ value: JSONValue) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }
}
