import Logging
import ServiceLifecycle
import Synchronization

/// Services running in one `ServiceGroup` for part of a test, the way `awfulbot run` runs them, without signal
/// handlers (the test runner owns the process's signals). `stop()` is a graceful shutdown, bounded so a service that
/// ignores it cannot hang the suite.
package final class RunningServices: Sendable {
  private let group: ServiceGroup
  private let task: Task<Void, any Error>

  package init(_ services: [any Service], logger: Logger = .quiet()) {
    let group = ServiceGroup(
      configuration: ServiceGroupConfiguration(
        services: services.map { .init(service: $0) }, gracefulShutdownSignals: [], cancellationSignals: [],
        logger: logger))
    self.group = group
    task = Task { try await group.run() }
  }

  /// How the group ended, once it has.
  package var result: Result<Void, any Error> {
    get async { await task.result }
  }

  /// Triggers graceful shutdown and waits for the group; after `bound` what still runs is cancelled. Returns how
  /// the group ended.
  @discardableResult
  package func stop(within bound: Duration = .seconds(10)) async -> Result<Void, any Error> {
    await group.triggerGracefulShutdown()
    let task = task
    let watchdog = Task {
      try await Task.sleep(for: bound)
      task.cancel()
    }
    defer { watchdog.cancel() }
    return await task.result
  }
}

/// Runs `services` in a `ServiceGroup` for the length of `body`, then shuts them down gracefully and waits. An error
/// of `body` wins over one of the group; otherwise the group's own error is thrown. What has not stopped `bound`
/// after the shutdown began is cancelled.
package func withRunningServices<T>(
  _ services: [any Service], logger: Logger = .quiet(), stopWithin bound: Duration = .seconds(30),
  _ body: () async throws -> T
) async throws -> T {
  let running = RunningServices(services, logger: logger)
  let result: T
  do {
    result = try await body()
  } catch {
    await running.stop(within: bound)
    throw error
  }
  try await running.stop(within: bound).get()
  return result
}
