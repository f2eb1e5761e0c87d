/// Thrown when `withDeadline` runs out of time.
package struct DeadlineExceeded: Error, Sendable {}

/// Runs `operation`, cancelling it and throwing `DeadlineExceeded` if it takes longer than `duration`.
/// AsyncHTTPClient's own deadline stops at the response head; this one also covers reading the body. The forum
/// client, the Matrix and Discord clients and the start-up's room resolution share it.
package func withDeadline<T: Sendable>(
  _ duration: Duration, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await withThrowingTaskGroup(of: T.self) { group in
    group.addTask { try await operation() }
    group.addTask {
      try await Task.sleep(for: duration)
      throw DeadlineExceeded()
    }
    defer { group.cancelAll() }
    guard let first = try await group.next() else { throw CancellationError() }
    return first
  }
}

extension Duration {
  /// Whole milliseconds, for AsyncHTTPClient's timeouts and for logs.
  package var wholeMilliseconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds * 1000 + attoseconds / 1_000_000_000_000_000
  }
}
