import ServiceLifecycle

/// Ends the service group after a fixed time (`demo --duration`): returning from `run()` makes the group shut the
/// other services down gracefully, just as SIGTERM would.
struct ShutdownTimer: Service {
  let after: Duration

  init(after: Duration) { self.after = after }

  func run() async throws {
    try? await Task.sleep(for: after)
  }
}
