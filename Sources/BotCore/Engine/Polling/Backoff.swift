/// Exponential backoff with jitter, shared by the poller and the dispatchers.
enum Backoff {
  /// `base * 2^(attempt-1)`, capped at `maximum`.
  static func delay(attempt: Int, base: Duration, maximum: Duration) -> Duration {
    let exponent = min(max(attempt - 1, 0), 30)
    let seconds = base.timeInterval * Double(1 << exponent)
    return .seconds(min(seconds, maximum.timeInterval))
  }

  /// Stretches or shrinks `delay` by a random fraction up to `fraction`.
  static func jittered(_ delay: Duration, by fraction: Double) -> Duration {
    guard fraction > 0 else { return delay }
    let factor = 1 + Double.random(in: -fraction...fraction)
    return .seconds(max(delay.timeInterval * factor, 0))
  }
}
