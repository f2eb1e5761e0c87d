import Foundation

/// A misbehaviour of the forum, switched on at run time so tests can see how the client copes.
package enum Fault: Sendable, Hashable, Codable {
  /// HTTP 500 for the next `count` forum requests, or for every request until cleared when `count` is nil.
  case serverError(count: Int?)
  /// Every forum response waits this long first.
  case delay(milliseconds: Int)
  /// Every page is the "Database Unavailable!" page (`body.database_error`).
  case databaseUnavailable
  /// Every page for a logged-in account is the banned page (`body.banned`).
  case banned
  /// HTML pages are cut in half (a dropped connection or a broken proxy).
  case truncatedHTML
  /// Normal pages carry the probation banner `div#probation_warn`.
  case probation
  /// The forum's flood check: a reply less than `seconds` after the same account's last reply is refused with
  /// vBulletin's "This forum requires that you wait N seconds between posts." page.
  case floodCheck(seconds: Int)
  /// Something in front of the forum answers instead of it (`WallFault`): on every forum request, or only on paths
  /// starting with one of `paths`.
  case wall(WallFault)

  package var kind: FaultKind {
    switch self {
    case .serverError: .serverError
    case .delay: .delay
    case .databaseUnavailable: .databaseUnavailable
    case .banned: .banned
    case .truncatedHTML: .truncatedHTML
    case .probation: .probation
    case .floodCheck: .floodCheck
    case .wall: .wall
    }
  }
}

/// A wall in front of the emulated forum, as the real one meets them: Cloudflare's managed challenge, a rate limit,
/// a maintenance page.
package struct WallFault: Sendable, Hashable, Codable {
  package enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// HTTP 403 with `cf-mitigated: challenge` and a "Just a moment..." page, as Cloudflare serves it.
    case challenge
    /// HTTP 429 with `Retry-After` and Cloudflare's "error 1015" page.
    case rateLimit
    /// HTTP 503 with `Retry-After` and a maintenance page.
    case maintenance
  }

  package var kind: Kind
  /// Request paths it stands in front of (`/showthread.php`); nil: every forum request.
  package var paths: [String]?
  /// The `Retry-After` it sends (rate limit and maintenance), in seconds; nil: none.
  package var retryAfterSeconds: Int?

  package init(kind: Kind, paths: [String]? = nil, retryAfterSeconds: Int? = nil) {
    self.kind = kind
    self.paths = paths
    self.retryAfterSeconds = retryAfterSeconds
  }

  /// Whether it answers a request for `path`.
  package func covers(_ path: String) -> Bool {
    paths.map { $0.contains { path.hasPrefix($0) } } ?? true
  }
}

package enum FaultKind: String, Sendable, Hashable, Codable, CaseIterable {
  case serverError
  case delay
  case databaseUnavailable
  case banned
  case truncatedHTML
  case probation
  case floodCheck
  case wall
}
