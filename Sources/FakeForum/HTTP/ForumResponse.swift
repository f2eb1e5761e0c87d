import Foundation

/// What the forum answers, independent of the HTTP server library.
struct ForumResponse: Sendable {
  var status: Int
  var headers: [(name: String, value: String)]
  var body: [UInt8]
  /// HTML bodies are what the truncation fault cuts.
  var isHTML: Bool

  static let htmlContentType = "text/html; charset=windows-1252"

  static func html(_ page: String, status: Int = 200) -> ForumResponse {
    ForumResponse(
      status: status, headers: [("Content-Type", htmlContentType)], body: Windows1252.encodeHTML(page), isHTML: true)
  }

  static func json(_ value: some Encodable, status: Int = 200) -> ForumResponse {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
    return ForumResponse(
      status: status, headers: [("Content-Type", "application/json; charset=utf-8")], body: Array(data), isHTML: false)
  }

  static func jsonData(_ data: Data, status: Int = 200) -> ForumResponse {
    ForumResponse(
      status: status, headers: [("Content-Type", "application/json; charset=utf-8")], body: Array(data), isHTML: false)
  }

  static func redirect(to location: String, status: Int = 302) -> ForumResponse {
    ForumResponse(
      status: status, headers: [("Location", location), ("Content-Type", htmlContentType)], body: [], isHTML: false)
  }

  static func plain(_ text: String, status: Int) -> ForumResponse {
    ForumResponse(
      status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array(text.utf8), isHTML: false)
  }

  func adding(header name: String, _ value: String) -> ForumResponse {
    var copy = self
    copy.headers.append((name, value))
    return copy
  }
}
