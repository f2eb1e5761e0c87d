import ServiceLifecycle

/// Ends the service group after a fixed time (`demo --duration`): returning from `run()` makes the group shut the
/// other services down gracefully, just as SIGTERM would.
struct ShutdownTimer: Service {
  let after: Duration

  init(after: Duration) { self.after = after }

  func run() async throws {
    // The group shuts services down one at a time, this one first (it is added last): a sleep that ignored a
    // shutdown begun elsewhere (SIGTERM) would hold every other service up until the timer ran out.
    _ = try? await cancelWhenGracefulShutdown { try await Task.sleep(for: after) }
  }
}
