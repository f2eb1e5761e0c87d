import Foundation

/// An answer of the receiver, before Hummingbird writes it.
package struct FakeDiscordResponse: Sendable, Error {
  package var status: Int
  package var headers: [(String, String)]
  package var body: [UInt8]

  init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  static func json(_ status: Int, _ object: [String: Any]) -> FakeDiscordResponse {
    let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    return FakeDiscordResponse(status: status, headers: [("Content-Type", "application/json")], body: Array(body))
  }

  /// Discord's error body: `{"message": "Unknown Webhook", "code": 10015}`.
  static func error(_ status: Int, code: Int, message: String) -> FakeDiscordResponse {
    json(status, ["message": message, "code": code])
  }

  /// 400, code 50035, with the field's error as Discord nests it.
  static func invalidFormBody(field: String, code: String, message: String) -> FakeDiscordResponse {
    json(
      400,
      [
        "message": "Invalid Form Body", "code": 50035,
        "errors": [field: ["_errors": [["code": code, "message": message]]]],
      ])
  }

  /// A 429 as Discord writes it: `{"message", "retry_after", "global"}` and `Retry-After` (whole seconds, rounded
  /// up), `X-RateLimit-Scope`, `X-RateLimit-Global` when global.
  static func rateLimited(retryAfter: Double, global: Bool) -> FakeDiscordResponse {
    var answer = json(429, ["message": "You are being rate limited.", "retry_after": retryAfter, "global": global])
    answer.headers.append(("Retry-After", "\(Int(max(retryAfter, 0).rounded(.up)))"))
    answer.headers.append(("X-RateLimit-Scope", global ? "global" : "user"))
    return answer
  }

  /// `X-RateLimit-Limit`, `-Remaining`, `-Reset` (epoch seconds), `-Reset-After` and `-Bucket`, on every answer.
  mutating func addBucketHeaders(limit: Int, remaining: Int, resetAfter: Double, webhookID: String) {
    let rounded = (resetAfter * 1000).rounded(.up) / 1000
    headers += [
      ("X-RateLimit-Limit", "\(limit)"), ("X-RateLimit-Remaining", "\(max(remaining, 0))"),
      ("X-RateLimit-Reset", String(format: "%.3f", Date().timeIntervalSince1970 + rounded)),
      ("X-RateLimit-Reset-After", String(format: "%.3f", rounded)),
      ("X-RateLimit-Bucket", "webhook-\(webhookID)"),
    ]
  }
}
