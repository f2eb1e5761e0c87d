import Foundation

/// One logical request to the forum, relative to the base URL. Redirects and retries happen below it.
package struct ForumRequest: Sendable, Hashable {
  package enum Method: String, Sendable, Hashable {
    case get = "GET"
    case post = "POST"
  }

  package var method: Method
  /// Endpoint relative to the base URL, such as `showthread.php`.
  package var path: String
  /// Query parameters, in order.
  package var query: [FormField]
  /// Multipart form fields of a POST, in order.
  package var form: [FormField]
  /// False to get the redirect response itself (`locatePost` reads its `Location`).
  package var followsRedirects: Bool
  /// False for requests that must not be repeated once the forum may have acted on them (posting a reply):
  /// those are retried only when the connection was never established.
  package var isIdempotent: Bool
  /// The most bytes this answer may have, when fewer than the configured cap (a forum attachment's picture limit);
  /// more is refused while reading.
  package var maximumBodySize: Int?
  /// How a POST's fields travel: multipart, as every form on the forum's pages is sent, or urlencoded, as the
  /// search form is (`query.php`, the forum's one urlencoded POST; it says `accept-charset="UTF-8"`).
  package var bodyEncoding: BodyEncoding = .multipart

  package enum BodyEncoding: Sendable, Hashable {
    case multipart
    /// `application/x-www-form-urlencoded`, names and values percent-encoded as UTF-8.
    case urlEncoded
  }

  package init(
    _ method: Method, _ path: String, query: [FormField] = [], form: [FormField] = [],
    followsRedirects: Bool = true, isIdempotent: Bool = true
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.form = form
    self.followsRedirects = followsRedirects
    self.isIdempotent = isIdempotent
  }

  package static func get(_ path: String, _ query: [(String, String)] = []) -> ForumRequest {
    ForumRequest(.get, path, query: query.map { FormField($0.0, $0.1) })
  }

  package static func post(
    _ path: String, query: [(String, String)] = [], form: [FormField], isIdempotent: Bool = true
  ) -> ForumRequest {
    ForumRequest(.post, path, query: query.map { FormField($0.0, $0.1) }, form: form, isIdempotent: isIdempotent)
  }

  /// The absolute URL: `path` resolved against `baseURL`, with the query escaped to windows-1252 (`&#N;` for what
  /// it cannot hold) and then percent-encoded as UTF-8, as the forum's own client does.
  package func url(relativeTo baseURL: URL) -> URL? {
    guard var components = URLComponents(string: path) else { return nil }
    if !query.isEmpty {
      let encoded = query.map {
        QueryEncoding.encode(Windows1252.escaped($0.name)) + "=" + QueryEncoding.encode(Windows1252.escaped($0.value))
      }
      let existing = components.percentEncodedQuery.map { [$0] } ?? []
      components.percentEncodedQuery = (existing + encoded).joined(separator: "&")
    }
    return components.url(relativeTo: baseURL)?.absoluteURL
  }
}

/// Strict percent-encoding for query names and values: only RFC 3986 unreserved characters stay as they are.
package enum QueryEncoding {
  private static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  package static func encode(_ string: String) -> String {
    string.addingPercentEncoding(withAllowedCharacters: unreserved) ?? string
  }
}
