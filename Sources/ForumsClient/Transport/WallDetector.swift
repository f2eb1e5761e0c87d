import ForumModel
import Foundation

/// Tells a wall in front of the forum (`ForumWall`) from the forum's own answers, by what Cloudflare and a
/// maintenance page send: never by the status alone, since the forum itself answers 403 and 503 at times.
enum WallDetector {
  /// The wall `response` is, nil for an answer from the forum.
  static func wall(in response: ForumResponse, now: Date = Date()) -> ForumWall? {
    let retryAfter = retryAfterSeconds(response.headers.first(name: "retry-after"), now: now)
    // Cloudflare marks every challenge it serves (the header Awful.apk looks for).
    if response.headers.first(name: "cf-mitigated")?.lowercased() == "challenge" {
      return ForumWall(kind: .challenge, status: response.status, retryAfterSeconds: retryAfter)
    }
    let text = String(decoding: response.body.prefix(16_384), as: UTF8.self).lowercased()
    // Every page of the forum's own has `<body id="something_awful">`; a post quoting a wall's words is not a wall.
    let forumPage = text.contains("id=\"something_awful\"") || text.contains("class=\"standarderror\"")
    if [403, 503].contains(response.status), !forumPage,
      text.contains("<title>just a moment...</title>") || text.contains("/cdn-cgi/challenge-platform/")
    {
      return ForumWall(kind: .challenge, status: response.status, retryAfterSeconds: retryAfter)
    }
    if response.status == 429
      || (!forumPage && (text.contains("error code: 1015") || text.contains("you are being rate limited")))
    {
      return ForumWall(kind: .rateLimit, status: response.status, retryAfterSeconds: retryAfter)
    }
    if response.status == 503, !forumPage, text.contains("maintenance") {
      return ForumWall(kind: .maintenance, status: response.status, retryAfterSeconds: retryAfter)
    }
    return nil
  }

  /// `Retry-After` as whole seconds from now (rounded up), see `RetryAfterHeader`: at most a day, so the conversion
  /// cannot trap.
  static func retryAfterSeconds(_ value: String?, now: Date) -> Int? {
    value.flatMap { RetryAfterHeader.seconds($0, now: now) }.map { Int($0.rounded(.up)) }
  }
}
