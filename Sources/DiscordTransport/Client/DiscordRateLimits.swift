/// When the bot may next call Discord, by what Discord said (a value, so the rules are tested without a server):
/// each webhook's bucket is waited out once its `X-RateLimit-Remaining` reaches 0 (until `X-RateLimit-Reset-After`),
/// a 429 holds its webhook for its `retry_after`, and a global 429 holds every webhook. Discord counts webhooks
/// apart, so one busy room does not hold up the others.
struct DiscordRateLimits: Sendable, Hashable {
  /// Webhook id → when its next request may go.
  private(set) var heldUntil: [String: ContinuousClock.Instant] = [:]
  /// When any request may go again after a global 429.
  private(set) var globalUntil: ContinuousClock.Instant?

  /// How long a request to `webhook` must wait at `now` (zero when it may go).
  func wait(webhook: String, now: ContinuousClock.Instant) -> Duration {
    let until = [heldUntil[webhook], globalUntil].compactMap { $0 }.max()
    guard let until, until > now else { return .zero }
    return until - now
  }

  /// Takes in the headers of an answer from `webhook` that came at `now`.
  mutating func record(_ headers: DiscordRateLimitHeaders, webhook: String, now: ContinuousClock.Instant) {
    if headers.remaining == 0, let resetAfter = headers.resetAfter {
      hold(webhook, until: now + resetAfter)
    } else if headers.remaining.map({ $0 > 0 }) == true {
      // The bucket has room again: an older hold from a reset that came early is over.
      if let until = heldUntil[webhook], until > now { heldUntil[webhook] = nil }
    }
  }

  /// Takes in a 429 from `webhook` at `now` that asks to wait `wait`; `global` holds every webhook.
  mutating func record429(wait: Duration, global: Bool, webhook: String, now: ContinuousClock.Instant) {
    if global {
      globalUntil = max(globalUntil ?? now, now + wait)
    } else {
      hold(webhook, until: now + wait)
    }
  }

  private mutating func hold(_ webhook: String, until: ContinuousClock.Instant) {
    heldUntil[webhook] = max(heldUntil[webhook] ?? until, until)
  }
}
