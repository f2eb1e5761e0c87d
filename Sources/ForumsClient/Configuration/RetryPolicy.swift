/// How often and how patiently a failed request is tried again. Only transient failures are retried: server errors
/// (5xx) and failures to connect; a 4xx or a page the forum served on purpose is an answer, not a hiccup.
package struct RetryPolicy: Sendable, Hashable {
  /// Total tries including the first; 1 disables retrying.
  package var maxAttempts: Int
  /// Delay before the first retry; each further retry doubles it, up to `maximumDelay`.
  package var initialDelay: Duration
  package var maximumDelay: Duration
  /// Fraction of each delay that is randomised (0 = fixed delays, 1 = anywhere from 0 to the full delay), so that
  /// clients failing together do not retry together.
  package var jitter: Double

  package init(
    maxAttempts: Int = 3, initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(30),
    jitter: Double = 0.5
  ) {
    self.maxAttempts = max(1, maxAttempts)
    self.initialDelay = initialDelay
    self.maximumDelay = maximumDelay
    self.jitter = min(max(jitter, 0), 1)
  }

  package static let none = RetryPolicy(maxAttempts: 1)

  /// The delay before retry number `retry` (1 for the first retry), jittered with `random` in 0...1.
  package func delay(beforeRetry retry: Int, random: Double = Double.random(in: 0...1)) -> Duration {
    let exponent = min(max(retry - 1, 0), 30)
    let uncapped = initialDelay * (1 << exponent)
    let base = uncapped > maximumDelay ? maximumDelay : uncapped
    let factor = 1 - jitter * min(max(random, 0), 1)
    return base * factor
  }

  /// Whether an HTTP status is worth another try.
  package static func isRetryable(status: Int) -> Bool {
    (500...599).contains(status)
  }
}
