import Foundation
import GRDB

/// One cookie of the forum session, so a restart does not need a fresh login.
package struct ForumCookieRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "forumCookie"

  package var name: String
  package var domain: String
  package var path: String
  package var value: String
  package var expiresAt: Date?
  package var isSecure: Bool
  package var isHTTPOnly: Bool

  package init(
    name: String, domain: String, path: String = "/", value: String, expiresAt: Date? = nil, isSecure: Bool = false,
    isHTTPOnly: Bool = false
  ) {
    self.name = name
    self.domain = domain
    self.path = path
    self.value = value
    self.expiresAt = expiresAt
    self.isSecure = isSecure
    self.isHTTPOnly = isHTTPOnly
  }
}
