import Foundation
import Testing

/// Polls `condition` every `interval` until it holds or `timeout` has passed; returns its last answer. For tests
/// that want to state the outcome themselves (`#expect(try await eventually { … })`).
package func eventually(
  timeout: Duration = .seconds(20), every interval: Duration = .milliseconds(20),
  _ condition: () async throws -> Bool
) async throws -> Bool {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if try await condition() { return true }
    try await Task.sleep(for: interval)
  }
  // One last look: the condition may have come true while the last sleep ran past the deadline.
  return try await condition()
}

/// Waits until `condition` holds, and throws `WaitTimeout` (naming `what` and the caller's line) when `timeout`
/// passes first. It throws rather than recording an issue, so a test that tolerates the wait ending early can
/// write `try?` and check what it needs afterwards.
package func waitUntil(
  _ what: String = "a condition", timeout: Duration = .seconds(20), every interval: Duration = .milliseconds(20),
  sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async throws -> Bool
) async throws {
  guard try await eventually(timeout: timeout, every: interval, condition) else {
    throw WaitTimeout(what: what, timeout: timeout, sourceLocation: sourceLocation)
  }
}

/// What `waitUntil` throws when its time is up.
package struct WaitTimeout: Error, CustomStringConvertible {
  package var what: String
  package var timeout: Duration
  package var sourceLocation: SourceLocation
  package var description: String { "timed out after \(timeout) waiting until \(what) (\(sourceLocation))" }
}
