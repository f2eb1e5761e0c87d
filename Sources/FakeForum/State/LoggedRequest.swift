import Foundation

/// One request as the emulator received it, so tests can assert what the client asked for.
package struct LoggedRequest: Sendable, Hashable, Codable {
  package struct Field: Sendable, Hashable, Codable {
    package var name: String
    package var value: String

    package init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  package var method: String
  /// Path without the query, e.g. `/showthread.php`.
  package var path: String
  /// Query items in order, percent-decoded.
  package var query: [Field]
  /// Form fields of a POST body (multipart or urlencoded), decoded; `password` values are redacted.
  package var form: [Field]
  /// Names of the cookies sent (values are secrets and are not kept).
  package var cookieNames: [String]
  package var timestamp: Date
  /// The `User-Agent` the client sent.
  package var userAgent: String?

  package init(
    method: String, path: String, query: [Field], form: [Field], cookieNames: [String], timestamp: Date,
    userAgent: String? = nil
  ) {
    self.userAgent = userAgent
    self.method = method
    self.path = path
    self.query = query
    self.form = form
    self.cookieNames = cookieNames
    self.timestamp = timestamp
  }

  /// The first query value named `name`.
  package func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }
  /// The last form value named `name` (PHP keeps the last of repeated fields).
  package func formValue(_ name: String) -> String? { form.last { $0.name == name }?.value }
}
