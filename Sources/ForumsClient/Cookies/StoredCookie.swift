import Foundation

/// A cookie of the forum session, in a form a store can persist.
package struct StoredCookie: Sendable, Hashable, Codable {
  package var name: String
  package var value: String
  /// Lower-cased host or domain (without a leading dot) the cookie belongs to.
  package var domain: String
  package var path: String
  /// nil for a session cookie (kept until the session is cleared: the bot is one long session).
  package var expires: Date?
  package var isSecure: Bool
  package var isHTTPOnly: Bool

  package init(
    name: String, value: String, domain: String, path: String = "/", expires: Date? = nil, isSecure: Bool = false,
    isHTTPOnly: Bool = false
  ) {
    self.name = name
    self.value = value
    self.domain = domain.lowercased()
    self.path = path
    self.expires = expires
    self.isSecure = isSecure
    self.isHTTPOnly = isHTTPOnly
  }

  package func isExpired(at now: Date) -> Bool {
    expires.map { $0 <= now } ?? false
  }

  /// RFC 6265 §5.1.3: the host is the domain or one of its subdomains (never for IP addresses).
  package func matches(host: String) -> Bool {
    let host = host.lowercased()
    if host == domain { return true }
    let isIPAddress = host.allSatisfy { $0.isNumber || $0 == "." } || host.contains(":")
    return !isIPAddress && host.hasSuffix("." + domain)
  }

  /// RFC 6265 §5.1.4 path matching.
  package func matches(path requestPath: String) -> Bool {
    let requestPath = requestPath.isEmpty ? "/" : requestPath
    if requestPath == path { return true }
    guard requestPath.hasPrefix(path) else { return false }
    return path.hasSuffix("/") || requestPath.dropFirst(path.count).first == "/"
  }
}

extension StoredCookie: CustomStringConvertible, CustomDebugStringConvertible {
  /// Never shows the value: cookie values are the session's credentials.
  package var description: String { "StoredCookie(\(name) for \(domain)\(path))" }
  package var debugDescription: String { description }
}
