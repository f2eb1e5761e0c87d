import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

@testable import MatrixCrypto

/// Room keys say whether the room's history is shared (MSC4268, spec v1.19): members may then hand them to someone
/// invited later. A change of the room's history visibility starts a new session, so no key carries the old answer
/// past the change.
extension LibOlmEncryptionTests {
  @Test("room keys carry shared_history as the room's visibility says; a visibility change starts a new session")
  func sharedHistoryFlag() async throws {
    let world = try World()
    let machine = machine(world, store: InMemoryTransportStateStore())
    try await machine.start()
    let botCurve = await machine.identity.curve25519
    _ = try await machine.encrypt(["body": "a"], type: "m.room.message", room: Self.room, transactionID: "txn-a")
    var payloads = try world.peerPayloads(botCurve: botCurve)
    #expect(payloads.last?["content"]?["shared_history"] == true)
    #expect(payloads.last?["content"]?["org.matrix.msc3061.shared_history"] == true, "the name Element reads")
    let first = payloads.last?["content"]?["session_id"]

    world.seen.withLock { $0.historyVisibility = "joined" }
    await machine.historyVisibilityChanged(room: Self.room)
    _ = try await machine.encrypt(["body": "b"], type: "m.room.message", room: Self.room, transactionID: "txn-b")
    payloads = try world.peerPayloads(botCurve: botCurve)
    #expect(payloads.count == 2)
    #expect(payloads.last?["content"]?["session_id"] != first, "a new session after the change")
    #expect(payloads.last?["content"]?["shared_history"] == false)
    #expect(payloads.last?["content"]?["org.matrix.msc3061.shared_history"] == false)
  }
}
