import BotCore
import ChatBridge
import MatrixModel
import MatrixTransport

/// The endpoints only the benchmark needs, on the transport's own client: Synapse's shared-secret registration and
/// rate-limit override, and what the "human" room owner does (create a room).
extension MatrixClient {
  /// `GET /_synapse/admin/v1/register`: a one-time nonce for shared-secret registration.
  func registrationNonce() async throws -> String {
    let answer: JSONValue = try await call(
      MatrixRequest(.get, ["_synapse", "admin", "v1", "register"], timeout: .seconds(15)))
    guard let nonce = answer["nonce"]?.stringValue else {
      throw MatrixClientError.invalidResponse("the registration answer has no nonce")
    }
    return nonce
  }

  /// `POST /_synapse/admin/v1/register` with the nonce and its HMAC; returns the new user's id and access token.
  func registerWithSharedSecret(nonce: String, username: String, password: String, admin: Bool, mac: String)
    async throws -> (userID: String, accessToken: String)
  {
    let body: JSONValue = [
      "nonce": .string(nonce), "username": .string(username), "password": .string(password), "admin": .bool(admin),
      "mac": .string(mac),
    ]
    let answer: JSONValue = try await call(
      MatrixRequest(.post, ["_synapse", "admin", "v1", "register"], body: body, timeout: .seconds(30)))
    guard let userID = answer["user_id"]?.stringValue, let token = answer["access_token"]?.stringValue else {
      throw MatrixClientError.invalidResponse("the registration answer has no user id or access token")
    }
    return (userID, token)
  }

  /// Admin only: lifts (`0`, `0`) or sets one user's message rate limit.
  func overrideRateLimit(token: String, userID: String, messagesPerSecond: Int, burstCount: Int) async throws {
    let body: JSONValue = [
      "messages_per_second": .number(Double(messagesPerSecond)), "burst_count": .number(Double(burstCount)),
    ]
    _ = try await call(
      MatrixRequest(
        .post, ["_synapse", "admin", "v1", "users", userID, "override_ratelimit"], body: body, accessToken: token),
      as: JSONValue.self)
  }

  /// `POST /createRoom`: a private room with `invite` invited; returns the room id.
  /// - Parameter encrypted: with `m.room.encryption` (Megolm) in the initial state, as Element makes private rooms.
  func createRoom(token: String, name: String, invite: [String], encrypted: Bool = false) async throws -> String {
    var body: JSONValue = [
      "name": .string(name), "preset": "private_chat", "invite": .array(invite.map { .string($0) }),
    ]
    if encrypted, case .object(var object) = body {
      object["initial_state"] = [
        [
          "type": .string(MatrixRoomEncryption.eventType), "state_key": "",
          "content": MatrixRoomEncryption(algorithm: MatrixAlgorithm.megolm).json,
        ]
      ]
      body = .object(object)
    }
    return try await call(.v3(.post, ["createRoom"], body: body, accessToken: token), as: MatrixRoomIDResponse.self)
      .roomID
  }
}

extension MatrixClient {
  /// A `/messages` filter for room messages only.
  static let roomMessagesFilter = #"{"types":["\#(MatrixRoomMessage.eventType)"]}"#

  /// The content of the latest `m.room.message` in a room (`GET /rooms/{id}/messages`, newest first).
  func latestMessageContent(token: String, roomID: String) async throws -> JSONValue {
    let answer: JSONValue = try await call(
      .v3(
        .get, ["rooms", roomID, "messages"],
        query: [("dir", "b"), ("limit", "1"), ("filter", Self.roomMessagesFilter)], accessToken: token))
    guard let content = answer["chunk"]?.arrayValue?.first?["content"] else {
      throw MatrixClientError.invalidResponse("the room \(roomID) has no message")
    }
    return content
  }

  /// When the homeserver took in each message of the room (`origin_server_ts`, ms since 1970), oldest first: what the
  /// side-by-side comparison counts rates from.
  func messageTimestamps(token: String, roomID: String) async throws -> [Double] {
    var stamps: [Double] = []
    var from: String?
    while true {
      var query: [(name: String, value: String)] = [
        ("dir", "b"), ("limit", "1000"), ("filter", Self.roomMessagesFilter),
      ]
      if let from { query.append(("from", from)) }
      let answer: JSONValue = try await call(
        .v3(.get, ["rooms", roomID, "messages"], query: query, accessToken: token, timeout: .seconds(60)))
      let chunk = answer["chunk"]?.arrayValue ?? []
      for event in chunk {
        if case .number(let stamp)? = event["origin_server_ts"] { stamps.append(stamp) }
      }
      guard !chunk.isEmpty, let end = answer["end"]?.stringValue else { break }
      from = end
    }
    return stamps.sorted()
  }
}
