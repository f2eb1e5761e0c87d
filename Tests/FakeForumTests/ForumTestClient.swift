import AsyncHTTPClient
import AwfulBotTestKit
import Foundation

@testable import FakeForum

/// A plain HTTP client for poking the emulator as a browser does: it keeps cookies, posts forms in windows-1252 and
/// never follows redirects, so tests see exactly what the forum answered. The admin API is the kit's `admin` client.
final class ForumTestClient: @unchecked Sendable {
  struct Reply {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    /// The body read as windows-1252 (what the forum sends).
    var text: String { Windows1252.decode(body) }
    func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
    func headers(_ name: String) -> [String] {
      headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }
    var contentType: String? { header("Content-Type") }
  }

  let baseURL: URL
  private let http: HTTPClient
  /// Cookie jar (name → value), updated from every Set-Cookie.
  private(set) var cookies: [String: String] = [:]
  private let lock = NSLock()

  init(baseURL: URL) {
    self.baseURL = baseURL
    http = HTTPClient(
      eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
  }

  func shutdown() async throws { try await http.shutdown() }

  func get(_ pathAndQuery: String) async throws -> Reply {
    try await send(method: "GET", pathAndQuery, body: nil, contentType: nil)
  }

  /// A multipart/form-data POST in windows-1252 with `&#N;` entities, like the forum's own clients send.
  func postMultipart(_ pathAndQuery: String, fields: [(String, String)]) async throws -> Reply {
    let boundary = "------------------------\(UInt32.random(in: 0...UInt32.max))"
    var body: [UInt8] = []
    for (name, value) in fields {
      body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n".utf8)
      body += Windows1252.encodeHTML(value)
      body += Array("\r\n".utf8)
    }
    body += Array("--\(boundary)--\r\n".utf8)
    return try await send(
      method: "POST", pathAndQuery, body: body,
      contentType: "multipart/form-data; charset=windows-1252; boundary=\(boundary)")
  }

  func postURLEncoded(_ pathAndQuery: String, fields: [(String, String)]) async throws -> Reply {
    let allowed = CharacterSet.alphanumerics
    let body = fields.map { name, value in
      "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
    }.joined(separator: "&")
    return try await send(
      method: "POST", pathAndQuery, body: Array(body.utf8), contentType: "application/x-www-form-urlencoded")
  }

  /// The emulator's admin API (`/_fake/`), through the test kit's client: the calls tests make on the forum from
  /// outside, and raw JSON for the tests of the API itself.
  var admin: FakeForumAdminClient { FakeForumAdminClient(baseURL: baseURL) }

  func logIn(username: String = FakeForumSeed.botUsername, password: String = FakeForumSeed.botPassword) async throws
    -> Reply
  {
    try await postMultipart(
      "/account.php?json=1",
      fields: [("action", "login"), ("username", username), ("password", password), ("next", "/index.php?json=1")])
  }

  func setCookie(_ name: String, _ value: String?) {
    lock.withLock { cookies[name] = value }
  }

  private func send(method: String, _ pathAndQuery: String, body: [UInt8]?, contentType: String?) async throws -> Reply
  {
    var request = HTTPClientRequest(url: baseURL.absoluteString + pathAndQuery)
    request.method = .init(rawValue: method)
    let jar = lock.withLock { cookies }
    if !jar.isEmpty {
      request.headers.add(
        name: "Cookie", value: jar.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
    }
    if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
    if let body { request.body = .bytes(body) }
    let response = try await http.execute(request, timeout: .seconds(30))
    let collected = try await response.body.collect(upTo: 32 << 20)
    let headers = response.headers.map { (name: $0.name, value: $0.value) }
    for value in headers.filter({ $0.name.lowercased() == "set-cookie" }).map(\.value) {
      guard let pair = value.split(separator: ";").first else { continue }
      let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2 else { continue }
      // Only the attributes say whether the cookie is cleared: a random session token may well contain "1970".
      let attributes = value.split(separator: ";").dropFirst().map {
        $0.trimmingCharacters(in: .whitespaces).lowercased()
      }
      let expired = attributes.contains { $0 == "max-age=0" || ($0.hasPrefix("expires=") && $0.contains("1970")) }
      lock.withLock { cookies[parts[0]] = expired ? nil : parts[1] }
    }
    return Reply(status: Int(response.status.code), headers: headers, body: Array(collected.readableBytesView))
  }
}

/// Starts a forum on an ephemeral port, runs the body with a client, and always stops the forum.
func withForum(
  _ configuration: FakeForumConfiguration = FakeForumConfiguration(),
  _ body: (FakeForumServer, ForumTestClient) async throws -> Void
) async throws {
  let server = try await FakeForumServer(configuration: configuration)
  try await withStarted(server) { client in try await body(server, client) }
}

/// Starts an already configured forum, runs the body with a client, and always stops the forum.
func withStarted(_ server: FakeForumServer, _ body: (ForumTestClient) async throws -> Void) async throws {
  let client = ForumTestClient(baseURL: try await server.start())
  do {
    try await body(client)
  } catch {
    try? await client.shutdown()
    await server.stop()
    throw error
  }
  try await client.shutdown()
  await server.stop()
}
