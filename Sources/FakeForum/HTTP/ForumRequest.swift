import Foundation

/// A request reduced to what the forum looks at, independent of the HTTP server library.
struct ForumRequest: Sendable {
  var method: String
  /// Lower-cased path without the query (`/showthread.php`).
  var path: String
  var query: [LoggedRequest.Field]
  var form: [LoggedRequest.Field]
  var cookies: [String: String]
  /// Base URL to build absolute redirect targets, e.g. `http://127.0.0.1:8080`.
  var baseURL: String

  func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }
  /// PHP's `$_REQUEST`-like lookup: the last form value, else the query value.
  func value(_ name: String) -> String? { form.last { $0.name == name }?.value ?? queryValue(name) }
  func int(_ name: String) -> Int? { value(name).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }

  var isPost: Bool { method == "POST" }

  static func parseCookies(_ headerValues: [String]) -> [String: String] {
    var cookies: [String: String] = [:]
    for header in headerValues {
      for pair in header.split(separator: ";") {
        let parts = pair.split(separator: "=", maxSplits: 1)
        guard let name = parts.first?.trimmingCharacters(in: .whitespaces), !name.isEmpty else { continue }
        cookies[name] = parts.count > 1 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : ""
      }
    }
    return cookies
  }
}
