import Testing

@testable import MatrixTransport

/// The replay record stays bounded over months of decrypting, and still refuses a replay of an index it forgot.
@Suite("Megolm replay guard")
struct MegolmReplayGuardTests {
  @Test("an index used by another event is a replay; the same event again is not")
  func replay() {
    var guardian = MegolmReplayGuard(capacity: 10)
    #expect(guardian.use(session: "s", index: 0, eventID: "$a") == nil)
    #expect(guardian.use(session: "s", index: 0, eventID: "$a") == nil)
    #expect(guardian.use(session: "s", index: 0, eventID: "$b") == "$a")
  }

  @Test("it keeps at most its capacity; a forgotten index still counts as used, newer ones of that session do not")
  func bounded() {
    var guardian = MegolmReplayGuard(capacity: 100)
    for index in 0..<10_000 {
      #expect(guardian.use(session: "s\(index % 7)", index: UInt32(index), eventID: "$e\(index)") == nil)
    }
    #expect(guardian.count == 100)
    #expect(guardian.use(session: "s0", index: 7, eventID: "$replayed") == "an earlier event")
    #expect(guardian.use(session: "s0", index: 9_996, eventID: "$e9996") == nil, "remembered with its event")
    #expect(guardian.use(session: "s0", index: 10_003, eventID: "$next") == nil, "a new index is not a replay")
  }
}
