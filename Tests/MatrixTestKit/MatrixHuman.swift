import AsyncHTTPClient
import AwfulBotTestKit
import ChatBridge
import Crypto
import Foundation
import MatrixModel
import MatrixTransport
import Testing

/// A person on the homeserver, driven by plain HTTP calls (AsyncHTTPClient and hand-built JSON), independent of the
/// transport's own client: registers through the shared secret, creates rooms, writes, reads `/messages`.
package struct MatrixHuman: Sendable {
  package let userID: String
  package let accessToken: String
  package let password: String

  package static var homeserver: URL { SynapseEnvironment.url! }

  /// A fresh account with a unique name (`<prefix>_<random>`), so tests never share users.
  package static func register(_ prefix: String, admin: Bool = false) async throws -> MatrixHuman {
    let localpart = "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
    let password = "pw-\(UUID().uuidString)"
    let nonceAnswer = try await raw("GET", "/_synapse/admin/v1/register")
    let nonce = try #require(nonceAnswer.json["nonce"]?.stringValue)
    let secret = try #require(SynapseEnvironment.secret)
    let message =
      Array(nonce.utf8) + [0] + Array(localpart.utf8) + [0] + Array(password.utf8) + [0]
      + Array((admin ? "admin" : "notadmin").utf8)
    let mac = HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: Array(secret.utf8)))
      .map { String(format: "%02x", $0) }.joined()
    let answer = try await raw(
      "POST", "/_synapse/admin/v1/register",
      body: [
        "nonce": .string(nonce), "username": .string(localpart), "password": .string(password),
        "admin": .bool(admin), "mac": .string(mac),
      ])
    try answer.expectOK("register \(localpart)")
    return MatrixHuman(
      userID: try #require(answer.json["user_id"]?.stringValue),
      accessToken: try #require(answer.json["access_token"]?.stringValue), password: password)
  }

  // MARK: Rooms

  /// A private room with these power levels (the creator has full power anyway) and extra initial state events
  /// (`{"type", "state_key", "content"}`).
  package func createRoom(
    name: String = "test room", invite: [String] = [], power: [String: Int] = [:], alias: String? = nil,
    initialState: [JSONValue] = []
  ) async throws -> String {
    var body: [String: JSONValue] = [
      "name": .string(name), "preset": "private_chat", "invite": .array(invite.map { .string($0) }),
    ]
    if !initialState.isEmpty { body["initial_state"] = .array(initialState) }
    if !power.isEmpty {
      // Room version 12 gives the creator unlimited power itself and refuses the creator in `users`.
      body["power_level_content_override"] = ["users": .object(power.mapValues { .number(Double($0)) })]
    }
    if let alias { body["room_alias_name"] = .string(alias) }
    let answer = try await call("POST", ["createRoom"], body: .object(body))
    return try #require(answer["room_id"]?.stringValue)
  }

  package func invite(_ user: String, to room: String) async throws {
    _ = try await call("POST", ["rooms", room, "invite"], body: ["user_id": .string(user)])
  }

  package func join(_ room: String) async throws {
    _ = try await call("POST", ["join", room], body: [:])
  }

  package func kick(_ user: String, from room: String, reason: String = "test") async throws {
    _ = try await call("POST", ["rooms", room, "kick"], body: ["user_id": .string(user), "reason": .string(reason)])
  }

  package func setPower(_ level: Int, for user: String, in room: String) async throws {
    var content = try await call("GET", ["rooms", room, "state", "m.room.power_levels", ""])
    var users = content["users"]?.objectValue ?? [:]
    users[user] = .number(Double(level))
    if case .object(var object) = content {
      object["users"] = .object(users)
      content = .object(object)
    }
    _ = try await call("PUT", ["rooms", room, "state", "m.room.power_levels", ""], body: content)
  }

  /// `join`, `invite`, `leave`, `ban`, or nil when the user never had a membership there.
  package func membership(of user: String, in room: String) async throws -> String? {
    let answer = try await Self.raw(
      "GET", Self.path(["_matrix", "client", "v3", "rooms", room, "state", "m.room.member", user]), token: accessToken)
    return answer.status == 200 ? answer.json["membership"]?.stringValue : nil
  }

  @discardableResult
  package func say(_ text: String, in room: String) async throws -> String {
    let answer = try await call(
      "PUT", ["rooms", room, "send", "m.room.message", UUID().uuidString],
      body: ["msgtype": "m.text", "body": .string(text)])
    return try #require(answer["event_id"]?.stringValue)
  }

  /// Answers `eventID` the way clients did before spec v1.13 (many still do): a rich reply whose `body` quotes the
  /// original as the fallback (`> <@sender> first line`, `> more lines`, an empty line, then `text`) and whose
  /// `formatted_body` starts with the `<mx-reply>` quote, so the receiver's stripping of the fallback is exercised.
  @discardableResult
  package func reply(to eventID: String, text: String, in room: String) async throws -> String {
    let original = try await call("GET", ["rooms", room, "event", eventID])
    let content = Self.replyContent(
      to: eventID, in: room, sender: original["sender"]?.stringValue ?? "",
      body: original["content"]?["body"]?.stringValue ?? "", text: text)
    return try await send("m.room.message", content: content, in: room)
  }

  /// The content of a rich reply with the classic fallback (see `reply(to:text:in:)`).
  package static func replyContent(to eventID: String, in room: String, sender: String, body: String, text: String)
    -> JSONValue
  {
    let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
    let quoted = lines.enumerated().map { index, line in index == 0 ? "> <\(sender)> \(line)" : "> \(line)" }
    let escape = { (text: String) in
      text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
    let link = "https://matrix.to/#/\(room)/\(eventID)"
    let html =
      "<mx-reply><blockquote><a href=\"\(escape(link))\">In reply to</a> "
      + "<a href=\"https://matrix.to/#/\(escape(sender))\">\(escape(sender))</a><br>"
      + lines.map { escape(String($0)) }.joined(separator: "<br>") + "</blockquote></mx-reply>" + escape(text)
    return [
      "msgtype": "m.text", "body": .string(quoted.joined(separator: "\n") + "\n\n" + text),
      "format": "org.matrix.custom.html", "formatted_body": .string(html),
      "m.relates_to": ["m.in_reply_to": ["event_id": .string(eventID)]],
    ]
  }

  /// Reacts to `eventID` with `key` (an `m.reaction` annotation, as Element sends it in a plain room); returns the
  /// reaction's id.
  @discardableResult
  package func react(to eventID: String, key: String, in room: String) async throws -> String {
    try await send(
      "m.reaction",
      content: ["m.relates_to": ["rel_type": "m.annotation", "event_id": .string(eventID), "key": .string(key)]],
      in: room)
  }

  /// Sends an event of any type (e.g. `m.room.encrypted` with made-up ciphertext); returns its id.
  @discardableResult
  package func send(_ type: String, content: JSONValue, in room: String) async throws -> String {
    let answer = try await call("PUT", ["rooms", room, "send", type, UUID().uuidString], body: content)
    return try #require(answer["event_id"]?.stringValue)
  }

  /// The room's `m.room.message` events, oldest first (up to the last 200).
  package func messages(in room: String) async throws -> [MatrixEvent] {
    try await events(in: room, types: ["m.room.message"])
  }

  /// The room's events of these types, oldest first (up to the last 200).
  package func events(in room: String, types: [String]) async throws -> [MatrixEvent] {
    let filter = String(decoding: try JSONEncoder().encode(["types": types]), as: UTF8.self)
    let answer = try await call(
      "GET", ["rooms", room, "messages"], query: [("dir", "b"), ("limit", "200"), ("filter", filter)])
    let chunk = answer["chunk"]?.arrayValue ?? []
    let data = try JSONEncoder().encode(JSONValue.array(chunk))
    return try JSONDecoder().decode([MatrixEvent].self, from: data).reversed()
  }

  /// The room's reactions (`m.reaction` in clear text), oldest first.
  package func reactions(in room: String) async throws -> [MatrixEvent] {
    try await events(in: room, types: ["m.reaction"])
  }

  /// The room's edits (`m.room.message` replacing another), oldest first.
  package func edits(in room: String) async throws -> [MatrixEvent] {
    try await messages(in: room).filter { $0.replaces != nil }
  }

  /// Polls the room's events of these types until `condition` holds or the deadline passes; returns the last read.
  @discardableResult
  package func waitForEvents(
    in room: String, types: [String], timeout: Duration = .seconds(20), until condition: ([MatrixEvent]) -> Bool
  ) async throws -> [MatrixEvent] {
    try await readUntil(every: .milliseconds(100), timeout: timeout) {
      try await events(in: room, types: types)
    } until: {
      condition($0)
    }
  }

  /// Polls `/messages` until `condition` holds for the room's messages or the deadline passes; returns the last
  /// read either way (the caller's `#expect` says what was wrong).
  @discardableResult
  package func waitForMessages(
    in room: String, timeout: Duration = .seconds(20), until condition: ([MatrixEvent]) -> Bool
  ) async throws -> [MatrixEvent] {
    try await waitForEvents(in: room, types: ["m.room.message"], timeout: timeout, until: condition)
  }

  /// Polls the user's membership until it is `expected` or the deadline passes.
  @discardableResult
  package func waitForMembership(
    of user: String, in room: String, toBe expected: String, timeout: Duration = .seconds(20)
  )
    async throws -> String?
  {
    try await readUntil(every: .milliseconds(100), timeout: timeout) {
      try await membership(of: user, in: room)
    } until: {
      $0 == expected
    }
  }

  /// Admin only: the user's message rate limit (`0` lifts it).
  package func overrideRateLimit(for user: String, messagesPerSecond: Int, burst: Int) async throws {
    let answer = try await Self.raw(
      "POST", Self.path(["_synapse", "admin", "v1", "users", user, "override_ratelimit"]),
      body: ["messages_per_second": .number(Double(messagesPerSecond)), "burst_count": .number(Double(burst))],
      token: accessToken)
    try answer.expectOK("override_ratelimit")
  }

  // MARK: HTTP

  @discardableResult
  package func call(_ method: String, _ path: [String], query: [(String, String)] = [], body: JSONValue? = nil)
    async throws
    -> JSONValue
  {
    let answer = try await Self.raw(
      method, Self.path(["_matrix", "client", "v3"] + path, query: query), body: body, token: accessToken)
    try answer.expectOK("\(method) \(path.joined(separator: "/"))")
    return answer.json
  }

  /// The bytes of an `mxc://` URI, through the authenticated media endpoint (as Element downloads them).
  package func download(_ uri: String) async throws -> [UInt8] {
    let parts = uri.dropFirst("mxc://".count).split(separator: "/", maxSplits: 1).map(String.init)
    guard parts.count == 2 else { throw HumanError(description: "not an mxc URI: \(uri)") }
    var base = Self.homeserver.absoluteString
    while base.hasSuffix("/") { base.removeLast() }
    var request = HTTPClientRequest(
      url: base + Self.path(["_matrix", "client", "v1", "media", "download", parts[0], parts[1]]))
    request.headers.add(name: "Authorization", value: "Bearer \(accessToken)")
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
    let bytes = try await response.body.collect(upTo: 16 * 1024 * 1024)
    guard response.status.code == 200 else {
      throw HumanError(description: "download of \(uri): HTTP \(response.status.code)")
    }
    return Array(bytes.readableBytesView)
  }

  package struct Answer {
    package var status: Int
    package var json: JSONValue

    package func expectOK(_ what: String) throws {
      guard (200..<300).contains(status) else {
        throw HumanError(description: "\(what): HTTP \(status) \(json)")
      }
    }
  }

  package struct HumanError: Error, CustomStringConvertible {
    package var description: String
    package init(description: String) { self.description = description }
  }

  package static func path(_ segments: [String], query: [(String, String)] = []) -> String {
    let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text }
    var path = "/" + segments.map(encode).joined(separator: "/")
    if !query.isEmpty { path += "?" + query.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&") }
    return path
  }

  package static func raw(_ method: String, _ path: String, body: JSONValue? = nil, token: String? = nil) async throws
    -> Answer
  {
    var base = homeserver.absoluteString
    while base.hasSuffix("/") { base.removeLast() }
    var request = HTTPClientRequest(url: base + path)
    request.method = .init(rawValue: method)
    if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
    if let body {
      request.headers.add(name: "Content-Type", value: "application/json")
      request.body = .bytes(Array(try JSONEncoder().encode(body)))
    }
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
    let bytes = try await response.body.collect(upTo: 16 * 1024 * 1024)
    let data = Data(bytes.readableBytesView)
    let json = (try? JSONDecoder().decode(JSONValue.self, from: data)) ?? .null
    return Answer(status: Int(response.status.code), json: json)
  }
}

extension MatrixEvent {
  package var body: String? { content["body"]?.stringValue }
  package var formattedBody: String? { content["formatted_body"]?.stringValue }
  package var msgtype: String? { content["msgtype"]?.stringValue }
  package var replyTo: String? { content["m.relates_to"]?["m.in_reply_to"]?["event_id"]?.stringValue }
  /// The event an edit replaces.
  package var replaces: String? {
    content["m.relates_to"]?["rel_type"] == "m.replace" ? content["m.relates_to"]?["event_id"]?.stringValue : nil
  }
  /// What a reaction (`m.annotation`) is on, and its key.
  package var annotation: (target: String, key: String)? {
    let relation = content["m.relates_to"]
    guard relation?["rel_type"] == "m.annotation", let target = relation?["event_id"]?.stringValue,
      let key = relation?["key"]?.stringValue
    else { return nil }
    return (target, key)
  }
}
