/// Flood control for one connection: `burst` lines may go at once, then one line every `interval`. Every line the
/// connection sends after registration takes a token; replies the server demands (PONG) take one without waiting.
package actor IRCTokenBucket {
  package let burst: Int
  package let interval: Duration
  private var tokens: Double
  private var updated: ContinuousClock.Instant
  private let clock = ContinuousClock()

  package init(burst: Int = 4, interval: Duration = .seconds(2)) {
    self.burst = max(burst, 1)
    self.interval = interval
    self.tokens = Double(max(burst, 1))
    self.updated = ContinuousClock.now
  }

  /// Waits until a token is free and takes it. Callers are served in the order they call (actor FIFO plus the
  /// reservation below: a caller that has to wait books its token before sleeping).
  package func acquire() async throws {
    refill()
    tokens -= 1
    if tokens >= 0 { return }
    // Booked in advance: wait until the deficit has been paid back by the passing time.
    let wait = interval * (-tokens)
    try await Task.sleep(for: wait)
  }

  /// Takes a token without waiting (may go into debt, paid back before the next `acquire` returns).
  package func consume() {
    refill()
    tokens -= 1
  }

  /// Starts over full, for a new connection.
  package func reset() {
    tokens = Double(burst)
    updated = clock.now
  }

  private func refill() {
    let now = clock.now
    let elapsed = now - updated
    updated = now
    guard interval > .zero else {
      tokens = Double(burst)
      return
    }
    tokens = min(Double(burst), tokens + elapsed / interval)
  }
}
