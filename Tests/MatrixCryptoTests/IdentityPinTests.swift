import AwfulBotTestKit
import ChatBridge
import Foundation
import MatrixModel
import Testing

@testable import MatrixCrypto

/// Users' identities pinned on first sight (issue 33, "keys go only where they went"): a peer whose master key is
/// replaced loses the bot's trust until the operator accepts the new key, against the in-process homeserver of
/// `LibOlmEncryptionTests`.
extension LibOlmEncryptionTests {
  /// Gives the peer a cross-signing identity of `keys` and signs its device with it, as `/keys/query` then shows.
  func crossSignPeer(_ world: World, with keys: CrossSigningKeys) throws {
    let device = try #require(world.peerKeys.objectValue)
    var unsigned = device
    unsigned["signatures"] = nil
    var signed = try #require(
      try CrossSigningKeys.adding(signatureOf: keys.selfSigning, to: unsigned, userID: Self.peer).objectValue)
    // Keep the device's own self-signature beside the cross-signing one.
    var signatures = signed["signatures"]?[Self.peer]?.objectValue ?? [:]
    for (key, value) in device["signatures"]?[Self.peer]?.objectValue ?? [:] { signatures[key] = value }
    signed["signatures"] = [Self.peer: .object(signatures)]
    let identity = (
      master: try keys.publicObject(.master, userID: Self.peer),
      selfSigning: try keys.publicObject(.selfSigning, userID: Self.peer), device: JSONValue.object(signed)
    )
    world.seen.withLock { $0.peerIdentity = identity }
  }

  static func deviceListChanged(_ users: [String]) throws -> MatrixSyncResponse {
    let object: JSONValue = ["next_batch": "s", "device_lists": ["changed": .array(users.map { .string($0) })]]
    return try JSONDecoder().decode(MatrixSyncResponse.self, from: JSONEncoder().encode(object))
  }

  /// Room-key messages the peer's device has been sent so far.
  func keysSent(_ world: World) -> Int { world.seen.withLock { $0.toDevice.count } }

  @Test("a user's identity is pinned on first sight; a new master key makes their devices untrusted until accepted")
  func identityPinnedUntilAccepted() async throws {
    let world = try World()
    let store = InMemoryTransportStateStore()
    let options = MatrixIdentityOptions(localpart: "bot")
    try crossSignPeer(world, with: try CrossSigningKeys.generate())
    let machine = machine(world, store: store, options: options)
    try await machine.start()
    _ = try await machine.encrypt(["body": "a"], type: "m.room.message", room: Self.room, transactionID: "txn-a")
    #expect(keysSent(world) == 1, "the cross-signed peer gets the room key")

    // Someone publishes a new identity for the peer and cross-signs the same device with it.
    let replacement = try CrossSigningKeys.generate()
    try crossSignPeer(world, with: replacement)
    _ = await machine.receive(try Self.deviceListChanged([Self.peer]))
    let change = try #require(await machine.identityChangesToAnnounce().first)
    #expect(change.user == Self.peer)
    #expect(change.currentMasterKey == replacement.master.publicKey)
    #expect(await machine.changedIdentity(of: Self.peer) == change)
    #expect(await machine.identityStatus()?.changedIdentities == [Self.peer])
    // Nobody left: the session moves on because a device that had it is no longer trusted, and the event is
    // encrypted with the new session it names, which the old key cannot read.
    let first = try #require(world.peerRoomKeys(botCurve: await machine.identity.curve25519).values.first)
    let sent = try await machine.encrypt(
      ["body": "b"], type: "m.room.message", room: Self.room, transactionID: "txn-b")
    #expect(keysSent(world) == 1, "no key for a device signed by an identity the operator has not accepted")
    let newSession = try #require(sent["session_id"]?.stringValue)
    let ciphertext = try #require(sent["ciphertext"]?.stringValue)
    #expect(newSession != first.id)
    #expect((try? first.decrypt(ciphertext)) == nil, "the old key reads nothing")
    let own = try #require(
      try await MatrixCryptoStore(store: store).read(
        MatrixCryptoStore.InboundRecord.self,
        MatrixCryptoStore.Key.inbound(
          room: Self.room, senderKey: await machine.identity.curve25519, sessionID: newSession)))
    let ownSession = try MegolmInboundSession.unpickle(own.pickle, key: Array("secret".utf8))
    #expect(try ownSession.decrypt(ciphertext).plaintext.contains("\"b\""), "encrypted with the session it names")

    // Announced once, and still waiting after a restart; nothing changes on a second restart.
    await machine.identityChangeAnnounced(change)
    #expect(await machine.identityChangesToAnnounce().isEmpty)
    let restarted = self.machine(world, store: store, options: options)
    try await restarted.start()
    #expect(await restarted.identityChangesToAnnounce().isEmpty, "told once, across restarts")
    #expect(await restarted.changedIdentity(of: Self.peer) != nil, "still not accepted")
    await restarted.membersChanged(room: Self.room, someoneLeft: true)
    _ = try await restarted.encrypt(["body": "c"], type: "m.room.message", room: Self.room, transactionID: "txn-c")
    #expect(keysSent(world) == 1)

    // A key for someone else, or another key, accepts nothing.
    await restarted.acceptIdentities([Self.peer: try CrossSigningKeys.generate().master.publicKey])
    await restarted.membersChanged(room: Self.room, someoneLeft: true)
    _ = try await restarted.encrypt(["body": "d"], type: "m.room.message", room: Self.room, transactionID: "txn-d")
    #expect(keysSent(world) == 1)

    // The operator accepts the new key: the device is trusted again and the pin moves.
    await restarted.acceptIdentities([Self.peer: replacement.master.publicKey])
    await restarted.membersChanged(room: Self.room, someoneLeft: true)
    _ = try await restarted.encrypt(["body": "e"], type: "m.room.message", room: Self.room, transactionID: "txn-e")
    #expect(keysSent(world) == 2, "the accepted identity's device gets the key again")
    #expect(await restarted.changedIdentity(of: Self.peer) == nil)
    let pinned = try #require(try await store.value(for: "e2ee:identity:\(Self.peer)"))
    #expect(try JSONDecoder().decode(String.self, from: Data(pinned.utf8)) == replacement.master.publicKey)
  }

  @Test("a changed identity is untrusted under cross-signed only; under any, devices are not judged by identity")
  func identityUnderAnyTrust() async throws {
    let world = try World()
    try crossSignPeer(world, with: try CrossSigningKeys.generate())
    let machine = machine(
      world, store: InMemoryTransportStateStore(), options: MatrixIdentityOptions(localpart: "bot", trust: .any))
    try await machine.start()
    _ = try await machine.encrypt(["body": "a"], type: "m.room.message", room: Self.room, transactionID: "txn-a")
    try crossSignPeer(world, with: try CrossSigningKeys.generate())
    _ = await machine.receive(try Self.deviceListChanged([Self.peer]))
    #expect(await machine.identityChangesToAnnounce().count == 1, "the rooms still hear of it")
    await machine.membersChanged(room: Self.room, someoneLeft: true)
    _ = try await machine.encrypt(["body": "b"], type: "m.room.message", room: Self.room, transactionID: "txn-b")
    #expect(keysSent(world) == 2)
  }
}
