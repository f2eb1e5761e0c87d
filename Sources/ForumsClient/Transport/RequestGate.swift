/// Lets one HTTP exchange run at a time, in arrival order, and spaces the starts of consecutive exchanges by at
/// least `spacing`: the forum is one shared site and the bot must not hammer it.
package actor RequestGate {
  private let spacing: Duration
  private let clock = ContinuousClock()
  private var lastStart: ContinuousClock.Instant?
  private var isBusy = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  package init(spacing: Duration) {
    self.spacing = spacing
  }

  /// Waits for the gate and for the spacing since the previous start. Pair every successful call with `release()`.
  package func acquire() async throws {
    if isBusy {
      // `release()` hands the gate straight to the first waiter, so `isBusy` stays true.
      await withCheckedContinuation { waiters.append($0) }
    } else {
      isBusy = true
    }
    if let lastStart, spacing > .zero {
      let earliest = lastStart.advanced(by: spacing)
      if earliest > clock.now {
        do {
          try await clock.sleep(until: earliest)
        } catch {
          release()
          throw error
        }
      }
    }
    lastStart = clock.now
  }

  package func release() {
    if waiters.isEmpty {
      isBusy = false
    } else {
      waiters.removeFirst().resume()
    }
  }
}
