import Foundation
import Testing

/// Reads `read` every `interval` until `isDone` accepts what it read or `timeout` has passed, and returns the last
/// read (the caller decides what a read that never got there means). Every polling wait of the test kits goes
/// through here: a test waits for a state it can read, never for a fixed time.
package func readUntil<Value>(
  every interval: Duration = .milliseconds(20), timeout: Duration = .seconds(20),
  isolation: isolated (any Actor)? = #isolation, _ read: () async throws -> Value,
  until isDone: (Value) throws -> Bool
) async throws -> Value {
  let deadline = ContinuousClock.now + timeout
  while true {
    // Read once more after the deadline: the state may have come while the last pause ran past it.
    let passed = ContinuousClock.now >= deadline
    let value = try await read()
    if try isDone(value) || passed { return value }
    try await Task.sleep(for: interval)
  }
}

/// Polls `condition` every `interval` until it holds or `timeout` has passed; returns its last answer. For tests
/// that want to state the outcome themselves (`#expect(try await eventually { … })`).
package func eventually(
  timeout: Duration = .seconds(20), every interval: Duration = .milliseconds(20),
  isolation: isolated (any Actor)? = #isolation, _ condition: () async throws -> Bool
) async throws -> Bool {
  try await readUntil(every: interval, timeout: timeout, condition, until: { $0 })
}

/// Waits until `condition` holds, and throws `WaitTimeout` (naming `what` and the caller's line) when `timeout`
/// passes first. It throws rather than recording an issue, so a test that tolerates the wait ending early can
/// write `try?` and check what it needs afterwards.
package func waitUntil(
  _ what: String = "a condition", timeout: Duration = .seconds(20), every interval: Duration = .milliseconds(20),
  sourceLocation: SourceLocation = #_sourceLocation, isolation: isolated (any Actor)? = #isolation,
  _ condition: () async throws -> Bool
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
