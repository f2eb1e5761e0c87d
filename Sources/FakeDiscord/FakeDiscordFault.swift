/// What the fake receiver does wrong on purpose, until cleared (`FakeDiscordState.setFault`).
package enum FakeDiscordFault: Sendable, Hashable, Codable {
  /// The next `count` requests get a 429 with `retryAfter` seconds (body and headers), global or not.
  case rateLimitStorm(count: Int, retryAfter: Double, global: Bool)
  /// The next `count` requests get a 500.
  case serverErrors(count: Int)
  /// The next requests get exactly these answers, one each (hostile or odd answers: a 2xx without an id, a 429
  /// whose `retry_after` is `1e400`).
  case scripted([FakeDiscordScriptedAnswer])
}

/// One answer as written: status, headers and body.
package struct FakeDiscordScriptedAnswer: Sendable, Hashable, Codable {
  package var status: Int
  package var headers: [String: String]
  package var body: String

  package init(status: Int, headers: [String: String] = [:], body: String = "") {
    self.status = status
    self.headers = headers
    self.body = body
  }
}
