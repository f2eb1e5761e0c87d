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
  /// Sent as `Authorization: Bearer`; never logged.
  package var accessToken: String?
  /// Upper bound for the whole exchange, body included.
  package var timeout: Duration

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
    lhs.method == rhs.method && lhs.path == rhs.path && lhs.body == rhs.body && lhs.accessToken == rhs.accessToken
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
