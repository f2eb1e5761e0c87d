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

  package var kind: FaultKind {
    switch self {
    case .serverError: .serverError
    case .delay: .delay
    case .databaseUnavailable: .databaseUnavailable
    case .banned: .banned
    case .truncatedHTML: .truncatedHTML
    case .probation: .probation
    case .floodCheck: .floodCheck
    }
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
}
