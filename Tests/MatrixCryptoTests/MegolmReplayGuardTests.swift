import Testing

@testable import MatrixCrypto

/// The replay record stays bounded over months of decrypting, and still refuses a replay of an index it forgot.
@Suite("Megolm replay guard")
struct MegolmReplayGuardTests {
  @Test("an index used by another event is a replay; the same event again is not")
  func replay() {
    var guardian = MegolmReplayGuard(capacity: 10)
    #expect(guardian.isReplay(session: "s", index: 0, eventID: "$a") == false)
    #expect(guardian.isReplay(session: "s", index: 0, eventID: "$a") == false)
    #expect(guardian.isReplay(session: "s", index: 0, eventID: "$b") == true)
    #expect(guardian.isReplay(session: "t", index: 0, eventID: "$b") == false, "another session's index 0")
  }

  @Test("it keeps at most its capacity; a forgotten index still counts as used, newer ones of that session do not")
  func bounded() {
    var guardian = MegolmReplayGuard(capacity: 100)
    for index in 0..<10_000 {
      #expect(guardian.isReplay(session: "s\(index % 7)", index: UInt32(index), eventID: "$e\(index)") == false)
    }
    #expect(guardian.count == 100)
    #expect(guardian.isReplay(session: "s0", index: 7, eventID: "$replayed") == true)
    #expect(guardian.isReplay(session: "s0", index: 9_996, eventID: "$e9996") == false, "remembered with its event")
    #expect(guardian.isReplay(session: "s0", index: 9_996, eventID: "$other") == true, "remembered: another event")
    #expect(guardian.isReplay(session: "s0", index: 10_003, eventID: "$next") == false, "a new index is not a replay")
  }
}
