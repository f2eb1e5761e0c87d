import AsyncHTTPClient
import Foundation

/// The session's cookies: filled from `Set-Cookie` headers, read to build the `Cookie` header of each request.
package struct CookieJar: Sendable, Hashable {
  package private(set) var cookies: [StoredCookie]

  package init(_ cookies: [StoredCookie] = []) {
    self.cookies = cookies
  }

  /// Applies the `Set-Cookie` headers of a response from `url`. A cookie whose expiry is in the past (or whose
  /// `Max-Age` is zero or less) deletes the stored cookie of the same name, domain and path, as browsers do.
  /// Returns whether anything changed.
  @discardableResult
  package mutating func receive(setCookieHeaders headers: [String], from url: URL, now: Date = Date()) -> Bool {
    guard let host = url.host?.lowercased() else { return false }
    let before = cookies
    for header in headers {
      guard let parsed = HTTPClient.Cookie(header: header, defaultDomain: host) else { continue }
      let cookie = StoredCookie(
        name: parsed.name, value: parsed.value, domain: parsed.domain ?? host, path: parsed.path,
        expires: Self.expiry(maxAge: parsed.maxAge, expires: parsed.expires, now: now), isSecure: parsed.secure,
        isHTTPOnly: parsed.httpOnly)
      // A server may only set cookies for itself or a parent domain of itself.
      guard cookie.matches(host: host) else { continue }
      cookies.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
      if !cookie.isExpired(at: now) {
        cookies.append(cookie)
      }
    }
    cookies.removeAll { $0.isExpired(at: now) }
    return cookies != before
  }

  /// The `Cookie` header value for a request to `url`, or nil when no cookie applies.
  package func cookieHeader(for url: URL, now: Date = Date()) -> String? {
    guard let host = url.host else { return nil }
    let isSecureScheme = url.scheme?.lowercased() == "https"
    let applicable =
      cookies
      .filter { !$0.isExpired(at: now) && $0.matches(host: host) && $0.matches(path: url.path) }
      .filter { !$0.isSecure || isSecureScheme }
      // RFC 6265 §5.4: longer paths first.
      .sorted { $0.path.count > $1.path.count }
    guard !applicable.isEmpty else { return nil }
    return applicable.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
  }

  /// Whether a live cookie named `name` exists (any domain and path).
  package func contains(named name: String, now: Date = Date()) -> Bool {
    cookies.contains { $0.name == name && !$0.isExpired(at: now) }
  }

  package mutating func removeAll() {
    cookies.removeAll()
  }

  /// `Max-Age` wins over `Expires` (RFC 6265 §5.3 step 3).
  private static func expiry(maxAge: Int?, expires: Date?, now: Date) -> Date? {
    if let maxAge {
      return maxAge <= 0 ? .distantPast : now.addingTimeInterval(TimeInterval(maxAge))
    }
    return expires
  }
}

extension CookieJar: CustomStringConvertible {
  /// Names only: cookie values are the session's credentials.
  package var description: String { "CookieJar(\(cookies.map(\.name).joined(separator: ", ")))" }
}
