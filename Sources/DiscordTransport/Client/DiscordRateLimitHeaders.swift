import ForumModel
import Foundation

/// The rate-limit headers Discord puts on every answer, read through `Clamp`: whatever the numbers say (`inf`,
/// `1e400`, negative, not a number), a wait stays within a day and no conversion traps.
struct DiscordRateLimitHeaders: Sendable, Hashable {
  /// `X-RateLimit-Remaining`: requests left in this webhook's bucket before it resets; nil when absent or unreadable.
  var remaining: Int?
  /// `X-RateLimit-Reset-After`: how long until the bucket resets (seconds, fractional).
  var resetAfter: Duration?
  /// `Retry-After` (seconds) on a 429.
  var retryAfter: Duration?
  /// `X-RateLimit-Global: true` on a 429 that holds for every request.
  var global: Bool
  /// `X-RateLimit-Scope` on a 429 (`user`, `global`, `shared`).
  var scope: String?

  init(
    remaining: Int? = nil, resetAfter: Duration? = nil, retryAfter: Duration? = nil, global: Bool = false,
    scope: String? = nil
  ) {
    self.remaining = remaining
    self.resetAfter = resetAfter
    self.retryAfter = retryAfter
    self.global = global
    self.scope = scope
  }

  /// Reads the headers; `value` gives a header's first value by name (any case).
  init(_ value: (String) -> String?) {
    self.init()
    if let written = value("X-RateLimit-Remaining")?.trimmingCharacters(in: .whitespaces) {
      // A count: any number reads (`1e30` is plenty, `-3` is none left), clamped into 0...forumNumber.
      if let whole = Int(written) {
        remaining = Clamp.forumNumber(whole)
      } else if let number = Double(written), !number.isNaN {
        remaining = number <= 0 ? 0 : Clamp.forumNumber(number >= 1e9 ? Clamp.forumNumber : Int(number))
      }
    }
    if let written = value("X-RateLimit-Reset-After"),
      let seconds = Double(written.trimmingCharacters(in: .whitespaces))
    {
      resetAfter = Clamp.seconds(seconds, atMost: Clamp.day)
    }
    if let written = value("Retry-After"), let seconds = RetryAfterHeader.seconds(written) {
      retryAfter = Clamp.seconds(seconds, atMost: Clamp.day)
    }
    global = value("X-RateLimit-Global")?.trimmingCharacters(in: .whitespaces).lowercased() == "true"
    scope = value("X-RateLimit-Scope").map { DiscordErrorBody.safeLine(String($0.prefix(32))) }
  }
}
