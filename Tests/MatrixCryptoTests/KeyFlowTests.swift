import AwfulBotTestKit
import ChatBridge
import Foundation
import MatrixModel
import Testing

@testable import MatrixCrypto

/// Keys that keep flowing, against the in-process homeserver of `LibOlmEncryptionTests`: the fallback key replaced
/// once used, a room-key request answered for a member and refused for anyone else, a wedged Olm session replaced
/// with an `m.dummy`, and Element's policy applied to what the peer's unverified device sends.
extension LibOlmEncryptionTests {
  /// A sync answer with these to-device events (and, optionally, the unused fallback key types).
  static func sync(toDevice: [JSONValue] = [], unusedFallbackKeyTypes: [String]? = nil) throws -> MatrixSyncResponse {
    var object: [String: JSONValue] = ["next_batch": "s", "to_device": ["events": .array(toDevice)]]
    if let types = unusedFallbackKeyTypes {
      object["device_unused_fallback_key_types"] = .array(types.map { .string($0) })
    }
    return try JSONDecoder().decode(MatrixSyncResponse.self, from: JSONEncoder().encode(JSONValue.object(object)))
  }

  static func keyRequest(from user: String, device: String, sessionID: String, senderKey: String) -> JSONValue {
    [
      "type": "m.room_key_request", "sender": .string(user),
      "content": [
        "action": "request", "requesting_device_id": .string(device), "request_id": "req-1",
        "body": [
          "algorithm": "m.megolm.v1.aes-sha2", "room_id": .string(Self.room), "session_id": .string(sessionID),
          "sender_key": .string(senderKey),
        ],
      ],
    ]
  }

  @Test("a used fallback key is replaced; one still unused is left alone")
  func fallbackKeyRotation() async throws {
    let world = try World()
    let machine = machine(world, store: InMemoryTransportStateStore())
    try await machine.start()
    func fallbackUploads() -> [JSONValue] {
      world.seen.withLock { $0.uploaded.compactMap { $0["fallback_keys"] } }
    }
    #expect(fallbackUploads().count == 1, "one fallback key at the first start")
    _ = await machine.receive(try Self.sync(unusedFallbackKeyTypes: ["signed_curve25519"]))
    #expect(fallbackUploads().count == 1, "still unused: nothing to do")
    _ = await machine.receive(try Self.sync(unusedFallbackKeyTypes: []))
    let uploads = fallbackUploads()
    #expect(uploads.count == 2, "used: a new one is published")
    let first = try #require(uploads.first?.objectValue?.values.first?["key"])
    let second = try #require(uploads.last?.objectValue?.values.first?["key"])
    #expect(first != second)
    #expect(uploads.last?.objectValue?.values.first?["fallback"] == true)
  }

  @Test("a room-key request from a member's device is answered with the forwarded key; a stranger's is not")
  func keyRequests() async throws {
    let world = try World()
    let machine = machine(world, store: InMemoryTransportStateStore())
    try await machine.start()
    let botCurve = await machine.identity.curve25519
    let sent = try await machine.encrypt(["body": "a"], type: "m.room.message", room: Self.room, transactionID: "t1")
    let sessionID = try #require(sent["session_id"]?.stringValue)
    let before = world.seen.withLock { $0.toDevice.count }

    // A stranger (not in the room, never had the key) asks: nothing goes out.
    _ = await machine.receive(
      try Self.sync(toDevice: [
        Self.keyRequest(from: "@mallory:localhost", device: "EVIL", sessionID: sessionID, senderKey: botCurve)
      ]))
    #expect(world.seen.withLock { $0.toDevice.count } == before)

    // The peer (in the room, had the key) asks again from its device: the session is forwarded.
    _ = await machine.receive(
      try Self.sync(toDevice: [
        Self.keyRequest(from: Self.peer, device: Self.peerDevice, sessionID: sessionID, senderKey: botCurve)
      ]))
    let payloads = try world.peerPayloads(botCurve: botCurve)
    let forwarded = try #require(payloads.last)
    #expect(forwarded["type"] == "m.forwarded_room_key")
    #expect(forwarded["content"]?["session_id"]?.stringValue == sessionID)
    #expect(forwarded["content"]?["sender_key"]?.stringValue == botCurve)
    let imported = try MegolmInboundSession.importing(
      exportedKey: try #require(forwarded["content"]?["session_key"]?.stringValue))
    let (plaintext, index) = try imported.decrypt(try #require(sent["ciphertext"]?.stringValue))
    #expect(index == 0)
    #expect(CanonicalJSON.parse(plaintext)?["content"] == ["body": "a"])

    // Once the peer has left the room, it gets nothing more.
    world.seen.withLock { $0.members = [Self.bot] }
    let count = world.seen.withLock { $0.toDevice.count }
    _ = await machine.receive(
      try Self.sync(toDevice: [
        Self.keyRequest(from: Self.peer, device: Self.peerDevice, sessionID: sessionID, senderKey: botCurve)
      ]))
    #expect(world.seen.withLock { $0.toDevice.count } == count)
  }

  @Test("a key request is answered from the index the device got, never earlier: it cannot read what came before")
  func keyRequestFromTheIndexGiven() async throws {
    let world = try World()
    // The bot alone in the room for two messages; the peer joins before the third.
    world.seen.withLock { $0.members = [Self.bot] }
    let machine = machine(world, store: InMemoryTransportStateStore())
    try await machine.start()
    let botCurve = await machine.identity.curve25519
    let first = try await machine.encrypt(
      ["body": "before"], type: "m.room.message", room: Self.room, transactionID: "t1")
    _ = try await machine.encrypt(["body": "before too"], type: "m.room.message", room: Self.room, transactionID: "t2")
    world.seen.withLock { $0.members = [Self.bot, Self.peer] }
    await machine.membersChanged(room: Self.room, someoneLeft: false)
    let third = try await machine.encrypt(
      ["body": "after"], type: "m.room.message", room: Self.room, transactionID: "t3")
    let sessionID = try #require(third["session_id"]?.stringValue)
    #expect(first["session_id"]?.stringValue == sessionID, "one session: nobody left")

    _ = await machine.receive(
      try Self.sync(toDevice: [
        Self.keyRequest(from: Self.peer, device: Self.peerDevice, sessionID: sessionID, senderKey: botCurve)
      ]))
    let forwarded = try #require(
      try world.peerPayloads(botCurve: botCurve).last { $0["type"] == "m.forwarded_room_key" })
    let imported = try MegolmInboundSession.importing(
      exportedKey: try #require(forwarded["content"]?["session_key"]?.stringValue))
    let (_, index) = try imported.decrypt(try #require(third["ciphertext"]?.stringValue))
    #expect(index == 2)
    #expect(throws: (any Error).self, "the messages before the peer joined stay unreadable") {
      try imported.decrypt(try #require(first["ciphertext"]?.stringValue))
    }

    // Another device of the same user never got the key: nothing goes out for it.
    let count = world.seen.withLock { $0.toDevice.count }
    _ = await machine.receive(
      try Self.sync(toDevice: [
        Self.keyRequest(from: Self.peer, device: "LATERDEVICE", sessionID: sessionID, senderKey: botCurve)
      ]))
    #expect(world.seen.withLock { $0.toDevice.count } == count)
  }

  @Test("a forwarded key is taken only from the session's own sender; one that reads further back replaces a later one")
  func forwardedKeys() async throws {
    let world = try World()
    let machine = machine(world, store: InMemoryTransportStateStore())
    try await machine.start()
    let (peer, olm, bot) = try await peerOlm(world, machine)
    let peerCurve = try peer.identityKeys().curve25519
    func forwarded(_ exported: String, session: String, origin: String) throws -> MatrixEvent {
      try Self.peerToDevice(
        type: "m.forwarded_room_key",
        content: [
          "algorithm": "m.megolm.v1.aes-sha2", "room_id": .string(Self.room), "session_id": .string(session),
          "session_key": .string(exported), "sender_key": .string(origin),
          "sender_claimed_ed25519_key": "claimed", "forwarding_curve25519_key_chain": [],
        ], over: olm, from: peer, to: bot)
    }
    let command = CanonicalJSON.string([
      "type": "m.room.message", "room_id": .string(Self.room), "content": ["msgtype": "m.text", "body": "!help"],
    ])

    // The peer forwards a key it says another device made: a key of its own making under another's name. Ignored.
    let forged = try MegolmOutboundSession.create()
    let forgedExport = try MegolmInboundSession.create(sessionKey: try forged.sessionKey()).export()
    let stranger = "c3RyYW5nZXJzIGN1cnZlIGtleSwgbm90IHRoZSBwZWVycw"
    #expect(
      await machine.receive(
        try Self.sync(toDevice: [try forwarded(forgedExport, session: forged.id, origin: stranger)])
      ).isEmpty)
    let forgedEvent = Self.roomEvent(
      id: "$forged", sender: Self.peer, senderKey: stranger, session: forged.id,
      ciphertext: try forged.encrypt(command))
    guard case .missingSession = await machine.decrypt(forgedEvent, room: Self.room) else {
      Issue.record("the forged key was not stored")
      return
    }

    // The peer's own session, forwarded from index 1 first; the real key from index 0 then replaces it.
    let megolm = try MegolmOutboundSession.create()
    let fromZero = try megolm.sessionKey()
    let first = try megolm.encrypt(command)
    let fromOne = try MegolmInboundSession.create(sessionKey: try megolm.sessionKey()).export()
    _ = await machine.receive(try Self.sync(toDevice: [try forwarded(fromOne, session: megolm.id, origin: peerCurve)]))
    let firstEvent = Self.roomEvent(
      id: "$first", sender: Self.peer, senderKey: peerCurve, session: megolm.id, ciphertext: first)
    guard case .failed = await machine.decrypt(firstEvent, room: Self.room) else {
      Issue.record("index 0 is not readable with the key from index 1")
      return
    }
    let roomKey = try Self.peerToDevice(
      type: "m.room_key",
      content: [
        "algorithm": "m.megolm.v1.aes-sha2", "room_id": .string(Self.room), "session_id": .string(megolm.id),
        "session_key": .string(fromZero),
      ], over: olm, from: peer, to: bot)
    _ = await machine.receive(try Self.sync(toDevice: [roomKey]))
    let again = Self.roomEvent(
      id: "$again", sender: Self.peer, senderKey: peerCurve, session: megolm.id, ciphertext: first)
    guard case .decrypted(let inner) = await machine.decrypt(again, room: Self.room) else {
      Issue.record("the key from index 0 replaced the one from index 1")
      return
    }
    #expect(inner.content["body"] == "!help")
  }

  @Test("an Olm message that no session opens: a new session and an m.dummy over it, once an hour at most")
  func wedgedSession() async throws {
    let world = try World()
    let machine = machine(world, store: InMemoryTransportStateStore())
    try await machine.start()
    let botCurve = await machine.identity.curve25519
    _ = try await machine.encrypt(["body": "a"], type: "m.room.message", room: Self.room, transactionID: "t1")
    let peerCurve = try OlmAccount.unpickle(world.peerPickle, key: World.key).identityKeys().curve25519
    let garbage: JSONValue = [
      "type": "m.room.encrypted", "sender": .string(Self.peer),
      "content": [
        "algorithm": "m.olm.v1.curve25519-aes-sha2", "sender_key": .string(peerCurve),
        "ciphertext": .object([botCurve: ["type": 1, "body": "Awogbm90IGFuIG9sbSBtZXNzYWdl"]]),
      ],
    ]
    let claimsBefore = world.seen.withLock { $0.toDevice.count }
    _ = await machine.receive(try Self.sync(toDevice: [garbage]))
    let payloads = try world.peerPayloads(botCurve: botCurve)
    #expect(world.seen.withLock { $0.toDevice.count } == claimsBefore + 1)
    #expect(payloads.last?["type"] == "m.dummy")
    _ = await machine.receive(try Self.sync(toDevice: [garbage]))
    #expect(world.seen.withLock { $0.toDevice.count } == claimsBefore + 1, "not again within the hour")
  }
}
