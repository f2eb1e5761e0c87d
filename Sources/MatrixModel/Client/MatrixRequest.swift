import ChatBridge
import Foundation

/// One call to the client-server API, described as data so building it is testable without a server.
package struct MatrixRequest: Sendable, Hashable {
  package enum Method: String, Sendable, Hashable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
  }

  package var method: Method
  /// Path segments below the homeserver root, unencoded (`["_matrix", "client", "v3", "rooms", "!a:b", "leave"]`).
  package var path: [String]
  package var query: [(name: String, value: String)]
  package var body: JSONValue?
  /// `body` already encoded, sent in its place when set.
  package var encodedBody: [UInt8]?
  /// The type of `encodedBody` when it is not JSON (a media upload).
  package var contentType: String?
  /// Sent as `Authorization: Bearer`; never logged.
  package var accessToken: String?
  /// Upper bound for the exchange: for the whole of it when `timeoutCoversBody`, else until the response head.
  package var timeout: Duration
  /// Whether `timeout` bounds the response body too, which takes a task racing the exchange (see
  /// `MatrixClient.perform`). A send turns it off: its answer is a few bytes that arrive with the head, and the
  /// racing task cost about 0.3 ms between two sends into a room. A body that stalls is still ended by the HTTP
  /// client's read timeout (90 s without a byte on the shared client).
  package var timeoutCoversBody = true

  package init(
    _ method: Method, _ path: [String], query: [(name: String, value: String)] = [], body: JSONValue? = nil,
    accessToken: String? = nil, timeout: Duration = .seconds(30)
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.body = body
    self.accessToken = accessToken
    self.timeout = timeout
  }

  /// A `/_matrix/client/v3/…` request.
  package static func v3(
    _ method: Method, _ path: [String], query: [(name: String, value: String)] = [], body: JSONValue? = nil,
    accessToken: String? = nil, timeout: Duration = .seconds(30)
  ) -> MatrixRequest {
    MatrixRequest(
      method, ["_matrix", "client", "v3"] + path, query: query, body: body, accessToken: accessToken,
      timeout: timeout)
  }

  /// The full URL. Every segment and query value is percent-encoded, so room ids (`!x:y`), aliases (`#a:b`), event
  /// types and transaction ids can never change the path's shape.
  package func url(homeserver: URL) -> String {
    var base = homeserver.absoluteString
    while base.hasSuffix("/") { base.removeLast() }
    let encodedPath = path.map(Self.encode).joined(separator: "/")
    var url = base + "/" + encodedPath
    if !query.isEmpty {
      url += "?" + query.map { "\(Self.encode($0.name))=\(Self.encode($0.value))" }.joined(separator: "&")
    }
    return url
  }

  /// RFC 3986 unreserved characters stay; everything else is percent-encoded.
  private static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  package static func encode(_ component: String) -> String {
    component.addingPercentEncoding(withAllowedCharacters: unreserved) ?? component
  }

  /// The path for logs: no query (filters are long), never the token.
  package var logPath: String { "/" + path.joined(separator: "/") }

  package static func == (lhs: MatrixRequest, rhs: MatrixRequest) -> Bool {
    lhs.method == rhs.method && lhs.path == rhs.path && lhs.body == rhs.body && lhs.encodedBody == rhs.encodedBody
      && lhs.timeoutCoversBody == rhs.timeoutCoversBody && lhs.accessToken == rhs.accessToken
      && lhs.timeout == rhs.timeout && lhs.query.map(\.name) == rhs.query.map(\.name)
      && lhs.query.map(\.value) == rhs.query.map(\.value)
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(method)
    hasher.combine(path)
    for item in query {
      hasher.combine(item.name)
      hasher.combine(item.value)
    }
  }
}
