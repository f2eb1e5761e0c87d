import AsyncHTTPClient
import Foundation

/// The forum emulator's JSON admin API (`/_fake/`, docs/fake-forum.md) over HTTP, the way an acceptance suite
/// makes things happen on the forum from outside: new posts (BBCode), threads, bookmarks; any other endpoint, and
/// the API's own tests, through `send`.
package struct FakeForumAdminClient: Sendable {
  package let baseURL: URL

  package init(baseURL: URL) { self.baseURL = baseURL }

  /// Adds a post to `thread` by `author` (a user name or id): BBCode, or ready HTML with `html`; dated `date` (to
  /// the second) when given, else now. Returns the new post's id.
  @discardableResult
  package func addPost(
    thread: Int, author: String, body: String, html: Bool = false, date: Date? = nil
  ) async throws -> Int {
    struct Request: Encodable {
      var thread: Int
      var author: String
      var body: String
      var html: Bool
      var date: Double?
    }
    struct Answer: Decodable { var postID: Int }
    let answer: Answer = try await post(
      "/_fake/posts",
      Request(
        thread: thread, author: author, body: body, html: html, date: date.map { $0.timeIntervalSince1970.rounded() }))
    return answer.postID
  }

  /// Adds a thread with its opening post; returns the thread's id and the opening post's id.
  package func addThread(forum: Int, title: String, author: String, body: String) async throws -> (
    thread: Int, post: Int
  ) {
    struct Request: Encodable {
      var forum: Int
      var title: String
      var author: String
      var body: String
    }
    struct Answer: Decodable {
      var threadID: Int
      var postID: Int
    }
    let answer: Answer = try await post(
      "/_fake/threads", Request(forum: forum, title: title, author: author, body: body))
    return (answer.threadID, answer.postID)
  }

  /// Bookmarks `thread` for `user` (a name), with a star colour name when given.
  /// Edits a post (`PUT /_fake/posts/<id>`) to a new BBCode body.
  package func editPost(_ postID: Int, body: String) async throws {
    let json = String(decoding: try JSONEncoder().encode(["body": body]), as: UTF8.self)
    let path = "/_fake/posts/\(postID)"
    let reply = try await send("PUT", path, json: json)
    guard reply.status == 200 else { throw AdminError(path: path, status: reply.status, body: reply.text) }
  }

  package func addBookmark(user: String, thread: Int, star: String? = nil) async throws {
    struct Request: Encodable {
      var user: String
      var thread: Int
      var star: String?
    }
    struct Answer: Decodable { var result: String }
    let _: Answer = try await post("/_fake/bookmarks", Request(user: user, thread: thread, star: star))
  }

  /// Adds a Leper's Colony entry (`POST /_fake/punishments`): `kind` is `probation`, `ban`, `autoban` or
  /// `permaban`; users by name; `reason` is HTML the emulator serves unescaped; `length` ("6 hours") makes a
  /// probation's "User loses posting privileges for 6 hours." sentence. The approver is the requester unless given.
  /// Returns the entry's id.
  @discardableResult
  package func addPunishment(
    kind: String, user: String, requester: String, approver: String? = nil, reason: String, length: String? = nil,
    post postID: Int? = nil, date: Date? = nil
  ) async throws -> Int {
    struct Request: Encodable {
      var kind: String
      var user: String
      var requester: String
      var approver: String?
      var reason: String
      var length: String?
      var post: Int?
      var date: Double?
    }
    struct Answer: Decodable { var punishmentID: Int }
    let answer: Answer = try await post(
      "/_fake/punishments",
      Request(
        kind: kind, user: user, requester: requester, approver: approver, reason: reason, length: length,
        post: postID, date: date.map { $0.timeIntervalSince1970.rounded() }))
    return answer.punishmentID
  }

  /// What the admin API answered to a request sent as it is: the status and the JSON body.
  package struct Reply: Sendable {
    package var status: Int
    package var body: Data
    /// The body as text (the admin API answers UTF-8 JSON).
    package var text: String { String(decoding: body, as: UTF8.self) }
    /// The body parsed with `JSONSerialization` (objects, arrays, numbers, strings).
    package func json() throws -> Any { try JSONSerialization.jsonObject(with: body) }
  }

  /// Sends `json` (raw JSON text, or no body) to an admin endpoint with `method` and returns what came back,
  /// whatever the status: for the tests of the admin API itself, and for endpoints without a call of their own.
  package func send(_ method: String, _ path: String, json: String? = nil) async throws -> Reply {
    let root =
      baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
    var request = HTTPClientRequest(url: root + path)
    request.method = .init(rawValue: method)
    if let json {
      request.headers.add(name: "Content-Type", value: "application/json")
      request.body = .bytes(Array(json.utf8))
    }
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
    let bytes = try await response.body.collect(upTo: 1 << 20)
    return Reply(status: Int(response.status.code), body: Data(bytes.readableBytesView))
  }

  private func post<Body: Encodable, Answer: Decodable>(_ path: String, _ body: Body) async throws -> Answer {
    let reply = try await send("POST", path, json: String(decoding: try JSONEncoder().encode(body), as: UTF8.self))
    guard reply.status == 200 else { throw AdminError(path: path, status: reply.status, body: reply.text) }
    return try JSONDecoder().decode(Answer.self, from: reply.body)
  }

  package struct AdminError: Error, CustomStringConvertible {
    package var path: String
    package var status: Int
    package var body: String
    package var description: String { "admin API \(path) answered \(status): \(body)" }
  }
}
