import Testing

@testable import ForumsClient

@Suite("Request gate")
struct RequestGateTests {
  actor Occupancy {
    var current = 0
    var highest = 0
    var order: [Int] = []

    func enter(_ id: Int) {
      current += 1
      highest = max(highest, current)
      order.append(id)
    }

    func leave() { current -= 1 }
  }

  @Test func letsOneHolderInAtATime() async throws {
    let gate = RequestGate(spacing: .zero)
    let occupancy = Occupancy()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for id in 0..<20 {
        group.addTask {
          try await gate.acquire()
          await occupancy.enter(id)
          // Give the others every chance to barge in.
          for _ in 0..<5 { await Task.yield() }
          await occupancy.leave()
          await gate.release()
        }
      }
      try await group.waitForAll()
    }
    #expect(await occupancy.highest == 1)
    #expect(await occupancy.order.count == 20)
  }

  /// A gate that stays taken after `release()` makes the second `acquire()` wait forever; this must fail the test,
  /// not hang the run. The time is a limit for a hang, not a speed target: the four calls take microseconds.
  @Test(.timeLimit(.minutes(1))) func aReleasedGateCanBeTakenAgain() async throws {
    let gate = RequestGate(spacing: .zero)
    let outcome = await Self.outcome(within: .seconds(10)) {
      try await gate.acquire()
      await gate.release()
      try await gate.acquire()
      await gate.release()
    }
    guard let outcome else {
      Issue.record("the gate could not be taken again within 10 s of its release")
      return
    }
    try outcome.get()
  }

  /// Runs `work` in a task of its own and returns how it ended, or nil when it had not ended within `limit`. The
  /// gate's waiters are not cancellable, so a hung `work` is left behind instead of awaited.
  static func outcome(within limit: Duration, _ work: @escaping @Sendable () async throws -> Void) async
    -> Result<Void, any Error>?
  {
    let (ends, end) = AsyncStream.makeStream(of: Result<Void, any Error>?.self)
    Task {
      do {
        try await work()
        end.yield(.success(()))
      } catch {
        end.yield(.failure(error))
      }
    }
    let timer = Task {
      try? await Task.sleep(for: limit)
      end.yield(nil)
    }
    defer { timer.cancel() }
    for await first in ends { return first }
    return nil
  }
}
