import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

@testable import MatrixTransport

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
