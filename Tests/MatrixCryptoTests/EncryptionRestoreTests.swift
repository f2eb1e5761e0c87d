import ChatBridge
import Foundation
import Testing

@testable import MatrixCrypto

/// Issue 35: encryption state older than the homeserver's (a database restored from a backup, or copied back by
/// hand). Nothing of it may repeat: no Megolm index is used for a second message, and no one-time key id the
/// homeserver has held goes up again with another key.
extension LibOlmEncryptionTests {
  /// The bot's one-time key ids the homeserver holds, as numbers.
  private func heldKeyNumbers(_ world: World) -> [UInt32] {
    world.seen.withLock { $0.botOneTimeKeys.keys }.compactMap(LibOlmEncryption.keyNumber).sorted()
  }

  @Test("after awfulbot restore: new Megolm sessions, the homeserver's one-time keys claimed and their ids skipped")
  func restoredByTheCommand() async throws {
    let world = try World()
    let store = InMemoryTransportStateStore()
    let first = machine(world, store: store)
    try await first.start()
    let botCurve = await first.identity.curve25519
    _ = try await first.encrypt(["body": "before"], type: "m.room.message", room: Self.room, transactionID: "t1")
    let backup = store.snapshot
    // Since the backup: two more messages and 20 keys claimed and replaced.
    for id in ["t2", "t3"] {
      _ = try await first.encrypt(["body": .string(id)], type: "m.room.message", room: Self.room, transactionID: id)
    }
    world.seen.withLock { seen in
      for id in seen.botOneTimeKeys.keys.sorted().prefix(20) { seen.botOneTimeKeys[id] = nil }
    }
    try await first.publishKeys(oneTimeKeyCount: 30)
    let highestHeld = try #require(heldKeyNumbers(world).last)

    var restored = backup
    restored[TransportStateMarker.restoredFromBackup] = "2026-11-29T12:00:00Z"
    let restoredStore = InMemoryTransportStateStore(restored)
    let second = machine(world, store: restoredStore)
    try await second.start()
    #expect(try await restoredStore.value(for: TransportStateMarker.restoredFromBackup) == nil, "handled once")
    let held = heldKeyNumbers(world)
    #expect(held.count == 50, "the homeserver holds a full set again")
    #expect(
      held.allSatisfy { $0 > highestHeld }, "no id it held before comes back: \(held.prefix(3)) vs \(highestHeld)")

    let next = try await second.encrypt(["body": "after"], type: "m.room.message", room: Self.room, transactionID: "t4")
    let (session, index, _) = try read(next, world: world, botCurve: botCurve)
    let (oldSession, _, _) = try read(
      try #require(
        try await MatrixCryptoStore(store: InMemoryTransportStateStore(backup)).sentContent(transactionID: "t1")),
      world: world, botCurve: botCurve)
    #expect(session != oldSession && index == 0, "a new session, from index 0")
  }

  @Test("a copy put back by hand: the homeserver refuses a key id it holds, and the bot starts over the same way")
  func restoredByHand() async throws {
    let world = try World()
    let store = InMemoryTransportStateStore()
    let first = machine(world, store: store)
    try await first.start()
    let backup = store.snapshot
    world.seen.withLock { seen in
      for id in seen.botOneTimeKeys.keys.sorted().prefix(10) { seen.botOneTimeKeys[id] = nil }
    }
    try await first.publishKeys(oneTimeKeyCount: 40)
    let highestHeld = try #require(heldKeyNumbers(world).last)

    let copied = InMemoryTransportStateStore(backup)
    let second = machine(world, store: copied)
    try await second.start()
    // Its first top-up reuses the ids the first one published last; the homeserver says so.
    try await second.publishKeys(oneTimeKeyCount: 40)
    let held = heldKeyNumbers(world)
    #expect(held.count == 50 && held.allSatisfy { $0 > highestHeld }, "\(held.prefix(3)) vs \(highestHeld)")
    #expect(try await copied.value(for: LibOlmEncryption.sessionsValidFromKey) != nil, "its old sessions are void")
  }
}
