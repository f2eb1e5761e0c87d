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

  @Test func aReleasedGateCanBeTakenAgain() async throws {
    let gate = RequestGate(spacing: .zero)
    try await gate.acquire()
    await gate.release()
    try await gate.acquire()
    await gate.release()
  }
}
