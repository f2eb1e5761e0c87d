import AwfulBotTestKit
import ChatBridge
import Foundation
import Logging
import MatrixModel
import Synchronization
import Testing

@testable import MatrixCrypto

/// `LibOlmEncryption` against a peer device made with libolm itself, the homeserver replaced by an in-process seam
/// that answers the four key endpoints: the bot's own state machine (sharing, resends, restarts, rotation) tested
/// without a network. The live suite does the same against Synapse and matrix-nio.
@Suite struct LibOlmEncryptionTests {
  static let room = "!room:localhost"
  static let bot = "@bot:localhost"
  static let peer = "@peer:localhost"
  static let peerDevice = "PEERDEVICE"

  /// The peer's device and what the "homeserver" saw: uploads, to-device messages.
  final class World: Sendable {
    struct Seen {
      var toDevice: [JSONValue] = []
      var uploads = 0
      var uploaded: [JSONValue] = []
      var members = [LibOlmEncryptionTests.bot, LibOlmEncryptionTests.peer]
      /// The bot user's published cross-signing keys and signatures, and its account data.
      var crossSigning: [String: JSONValue] = [:]
      var signatureUploads: [JSONValue] = []
      var accountData: [String: JSONValue] = [:]
      /// Answer the first cross-signing upload with a request for user-interactive auth.
      var asksForAuth = false
      /// The bot's device keys as uploaded, with the signatures uploaded since.
      var botDevice: JSONValue?
      var authAnswers: [JSONValue] = []
      /// The peer's published identity (`master_key`, `self_signing_key`) and its device signed by it; nil: the peer
      /// has no cross-signing and its device keys are `peerKeys` as made.
      var peerIdentity: (master: JSONValue, selfSigning: JSONValue, device: JSONValue)?
      var historyVisibility = "shared"
      /// The bot's one-time keys the "homeserver" holds (key id → key), as uploaded and not claimed.
      var botOneTimeKeys: [String: JSONValue] = [:]
      /// How many of the bot's one-time keys were claimed.
      var botClaims = 0
    }
    let seen = Mutex(Seen())
    let peerPickle: String
    let peerKeys: JSONValue
    let oneTimeKey: JSONValue
    static let key = Array("peer".utf8)

    init() throws {
      let account = try OlmAccount.create()
      let identity = try account.identityKeys()
      let deviceKeys: [String: JSONValue] = [
        "user_id": .string(LibOlmEncryptionTests.peer), "device_id": .string(LibOlmEncryptionTests.peerDevice),
        "algorithms": ["m.olm.v1.curve25519-aes-sha2", "m.megolm.v1.aes-sha2"],
        "keys": [
          "curve25519:\(LibOlmEncryptionTests.peerDevice)": .string(identity.curve25519),
          "ed25519:\(LibOlmEncryptionTests.peerDevice)": .string(identity.ed25519),
        ],
      ]
      func signed(_ object: [String: JSONValue]) throws -> JSONValue {
        var object = object
        object["signatures"] = [
          LibOlmEncryptionTests.peer: [
            "ed25519:\(LibOlmEncryptionTests.peerDevice)": .string(try account.sign(CanonicalJSON.signable(object)))
          ]
        ]
        return .object(object)
      }
      peerKeys = try signed(deviceKeys)
      try account.generateOneTimeKeys(1)
      let (id, key) = try #require(try account.oneTimeKeys().first)
      oneTimeKey = ["signed_curve25519:\(id)": try signed(["key": .string(key)])]
      account.markKeysAsPublished()
      peerPickle = try account.pickle(key: Self.key)
    }

    var api: MatrixCryptoAPI {
      MatrixCryptoAPI { [self] method, path, body in
        switch path.joined(separator: "/") {
        case "keys/upload":
          return try seen.withLock { seen in
            // As Synapse: another key under an id it holds is refused, the whole upload with it.
            for (id, key) in body?["one_time_keys"]?.objectValue ?? [:] {
              if let held = seen.botOneTimeKeys[id], held != key {
                throw MatrixClientError.api(
                  MatrixAPIError(status: 400, errcode: "M_UNKNOWN", message: "One time key \(id) already exists."))
              }
            }
            seen.uploads += 1
            seen.uploaded.append(body ?? .null)
            if let device = body?["device_keys"] { seen.botDevice = device }
            for (id, key) in body?["one_time_keys"]?.objectValue ?? [:] { seen.botOneTimeKeys[id] = key }
            // Before any upload of one-time keys, the tests that never looked at the count read 50.
            let held = seen.botOneTimeKeys.isEmpty && seen.botClaims == 0 ? 50 : seen.botOneTimeKeys.count
            return ["one_time_key_counts": ["signed_curve25519": .number(Double(held))]]
          }
        case "keys/query":
          return seen.withLock { seen in
            var devices: [String: JSONValue] = [
              LibOlmEncryptionTests.peer: [LibOlmEncryptionTests.peerDevice: seen.peerIdentity?.device ?? peerKeys]
            ]
            if let device = seen.botDevice { devices[LibOlmEncryptionTests.bot] = ["BOTDEVICE": device] }
            var answer: [String: JSONValue] = ["device_keys": .object(devices)]
            for (field, key) in [("master_keys", "master_key"), ("self_signing_keys", "self_signing_key")] {
              var users: [String: JSONValue] = [:]
              if let published = seen.crossSigning[key] { users[LibOlmEncryptionTests.bot] = published }
              if let peer = seen.peerIdentity {
                users[LibOlmEncryptionTests.peer] = key == "master_key" ? peer.master : peer.selfSigning
              }
              if !users.isEmpty { answer[field] = .object(users) }
            }
            return .object(answer)
          }
        case "keys/device_signing/upload":
          return try seen.withLock { seen in
            if seen.asksForAuth, body?["auth"] == nil {
              throw MatrixClientError.api(
                MatrixAPIError(status: 401, authSession: "uia-session", authFlows: [["m.login.password"]]))
            }
            if let auth = body?["auth"] { seen.authAnswers.append(auth) }
            for (key, value) in body?.objectValue ?? [:] where key != "auth" { seen.crossSigning[key] = value }
            return [:]
          }
        case "keys/signatures/upload":
          seen.withLock { seen in
            seen.signatureUploads.append(body ?? .null)
            // Merged into what `/keys/query` returns, as a homeserver does.
            for (id, signed) in body?[LibOlmEncryptionTests.bot]?.objectValue ?? [:] {
              let merge = { (target: JSONValue?) -> JSONValue? in
                guard var object = target?.objectValue else { return target }
                var all = object["signatures"]?[LibOlmEncryptionTests.bot]?.objectValue ?? [:]
                for (key, value) in signed["signatures"]?[LibOlmEncryptionTests.bot]?.objectValue ?? [:] {
                  all[key] = value
                }
                var signatures = object["signatures"]?.objectValue ?? [:]
                signatures[LibOlmEncryptionTests.bot] = .object(all)
                object["signatures"] = .object(signatures)
                return .object(object)
              }
              if id == "BOTDEVICE" {
                seen.botDevice = merge(seen.botDevice)
              } else if seen.crossSigning["master_key"]?["keys"]?["ed25519:\(id)"] != nil {
                seen.crossSigning["master_key"] = merge(seen.crossSigning["master_key"])
              }
            }
          }
          return ["failures": [:]]
        case let other where other.hasPrefix("user/") && other.contains("/account_data/"):
          let type = String(other.split(separator: "/").last ?? "")
          return try seen.withLock { seen in
            if method == .put {
              seen.accountData[type] = body ?? .null
              return [:]
            }
            guard let stored = seen.accountData[type] else {
              throw MatrixClientError.api(MatrixAPIError(status: 404, errcode: "M_NOT_FOUND"))
            }
            return stored
          }
        case "keys/claim":
          if body?["one_time_keys"]?[LibOlmEncryptionTests.bot] != nil {
            return seen.withLock { seen in
              guard let id = seen.botOneTimeKeys.keys.sorted().first, let key = seen.botOneTimeKeys[id] else {
                return ["one_time_keys": [:]]
              }
              seen.botOneTimeKeys[id] = nil
              seen.botClaims += 1
              return ["one_time_keys": [LibOlmEncryptionTests.bot: ["BOTDEVICE": [id: key]]]]
            }
          }
          return ["one_time_keys": [LibOlmEncryptionTests.peer: [LibOlmEncryptionTests.peerDevice: oneTimeKey]]]
        case let other where other.hasPrefix("sendToDevice/"):
          seen.withLock { $0.toDevice.append(body ?? .null) }
          return [:]
        case let other where other.hasSuffix("state/m.room.history_visibility/"):
          return ["history_visibility": .string(seen.withLock { $0.historyVisibility })]
        case let other where other.hasSuffix("joined_members"):
          let members = seen.withLock { $0.members }
          return ["joined": .object(Dictionary(uniqueKeysWithValues: members.map { ($0, JSONValue.object([:])) }))]
        default:
          throw MatrixEncryptionError("no such endpoint in the test: \(method.rawValue) \(path)")
        }
      }
    }

    /// Everything the bot sent the peer over Olm, decrypted, in order (a pre-key message that no session opens
    /// starts a new one, as a client does).
    func peerPayloads(botCurve: String) throws -> [JSONValue] {
      let account = try OlmAccount.unpickle(peerPickle, key: Self.key)
      var sessions: [OlmSession] = []
      var payloads: [JSONValue] = []
      for message in seen.withLock({ $0.toDevice }) {
        let content = try #require(
          message["messages"]?[LibOlmEncryptionTests.peer]?[LibOlmEncryptionTests.peerDevice])
        let cipher = try #require(content["ciphertext"]?[try account.identityKeys().curve25519])
        let type = try #require(cipher["type"]?.intValue)
        let body = try #require(cipher["body"]?.stringValue)
        // One try per session: a decryption moves the session on, so it must not be repeated.
        var plaintext: String?
        for session in sessions where plaintext == nil {
          plaintext = try? session.decrypt(type: type, body: body)
        }
        if plaintext == nil, type == 0 {
          let session = try OlmSession.inbound(account: account, theirIdentityKey: botCurve, preKeyMessage: body)
          sessions.append(session)
          plaintext = try session.decrypt(type: type, body: body)
        }
        let text = try #require(plaintext, "the peer reads the bot's message")
        let payload = try #require(CanonicalJSON.parse(text))
        #expect(payload["recipient"]?.stringValue == LibOlmEncryptionTests.peer)
        payloads.append(payload)
      }
      return payloads
    }

    /// What the peer reads: every room key it was sent (Olm-decrypted), by session id.
    func peerRoomKeys(botCurve: String) throws -> [String: MegolmInboundSession] {
      var keys: [String: MegolmInboundSession] = [:]
      for payload in try peerPayloads(botCurve: botCurve) {
        #expect(payload["type"] == "m.room_key")
        let sessionID = try #require(payload["content"]?["session_id"]?.stringValue)
        keys[sessionID] = try MegolmInboundSession.create(
          sessionKey: try #require(payload["content"]?["session_key"]?.stringValue))
      }
      return keys
    }
  }

  /// The bot's crypto; the peer device is not cross-signed, so these tests trust any device unless told otherwise.
  func machine(
    _ world: World, store: any TransportStateStore, pickleKey: String = "secret",
    options: MatrixIdentityOptions = MatrixIdentityOptions(localpart: "bot", trust: .any),
    inboundSessionsInMemory: Int = 256
  ) -> LibOlmEncryption {
    LibOlmEncryption(
      userID: Self.bot, deviceID: "BOTDEVICE", pickleKey: pickleKey, store: store, api: world.api,
      identityOptions: options, logger: .quiet(), inboundSessionsInMemory: inboundSessionsInMemory)
  }

  /// Decrypts an encrypted event content as the peer: (session id, index, inner content).
  func read(_ encrypted: JSONValue, world: World, botCurve: String) throws -> (String, UInt32, JSONValue) {
    let sessionID = try #require(encrypted["session_id"]?.stringValue)
    let session = try #require(try world.peerRoomKeys(botCurve: botCurve)[sessionID], "the peer got the key")
    let (plaintext, index) = try session.decrypt(try #require(encrypted["ciphertext"]?.stringValue))
    let payload = try #require(CanonicalJSON.parse(plaintext))
    #expect(payload["room_id"]?.stringValue == Self.room)
    #expect(payload["type"] == "m.room.message")
    return (sessionID, index, payload["content"] ?? .null)
  }

  @Test("a resend of a transaction id, also after a restart, yields the same event; the index moves once per id")
  func resendsRepeatTheSameEvent() async throws {
    let world = try World()
    let store = InMemoryTransportStateStore()
    let first = machine(world, store: store)
    try await first.start()
    let botCurve = await first.identity.curve25519
    let fingerprint = try #require(await first.fingerprint())

    let a = try await first.encrypt(["body": "a"], type: "m.room.message", room: Self.room, transactionID: "txn-a")
    let again = try await first.encrypt(["body": "a"], type: "m.room.message", room: Self.room, transactionID: "txn-a")
    #expect(again == a, "the same encrypted event for the same transaction id")
    let b = try await first.encrypt(["body": "b"], type: "m.room.message", room: Self.room, transactionID: "txn-b")
    #expect(world.seen.withLock { $0.toDevice.count } == 1, "the key went to the peer once, before the first message")
    #expect(await first.sharedRooms() == [Self.room])

    let (sessionA, indexA, contentA) = try read(a, world: world, botCurve: botCurve)
    let (sessionB, indexB, contentB) = try read(b, world: world, botCurve: botCurve)
    #expect(contentA == ["body": "a"])
    #expect(contentB == ["body": "b"])
    #expect(sessionA == sessionB)
    #expect((indexA, indexB) == (0, 1))

    // A crash and a restart on the same store: the resend is the same event, the next one continues the session.
    let second = machine(world, store: store)
    try await second.start()
    #expect(await second.fingerprint() == fingerprint, "the same device keys")
    let resent = try await second.encrypt(
      ["body": "b"], type: "m.room.message", room: Self.room, transactionID: "txn-b")
    #expect(resent == b)
    let c = try await second.encrypt(["body": "c"], type: "m.room.message", room: Self.room, transactionID: "txn-c")
    let (sessionC, indexC, _) = try read(c, world: world, botCurve: botCurve)
    #expect(sessionC == sessionA)
    #expect(indexC == 2)
    #expect(world.seen.withLock { $0.uploads } == 3, "device keys and the fallback key once, then only a count")
    #expect(
      world.seen.withLock { $0.uploaded.filter { $0["fallback_keys"] != nil }.count } == 1,
      "the fallback key is published once, not at every start")

    // Someone joins: the same session, shared with them. Someone leaves: a new session, shared before it is used.
    await second.membersChanged(room: Self.room, someoneLeft: false)
    let joined = try await second.encrypt(
      ["body": "j"], type: "m.room.message", room: Self.room, transactionID: "txn-j")
    #expect(joined["session_id"]?.stringValue == sessionA)
    world.seen.withLock { $0.members = [Self.bot] }
    await second.membersChanged(room: Self.room, someoneLeft: true)
    world.seen.withLock { $0.members = [Self.bot, Self.peer] }
    let d = try await second.encrypt(["body": "d"], type: "m.room.message", room: Self.room, transactionID: "txn-d")
    let (sessionD, indexD, contentD) = try read(d, world: world, botCurve: botCurve)
    #expect(sessionD != sessionA)
    #expect(indexD == 0)
    #expect(contentD == ["body": "d"])

    // The stored keys do not open with another pickle key, and say so.
    await #expect(throws: MatrixEncryptionError.self) {
      try await self.machine(world, store: store, pickleKey: "other").start()
    }
    #expect(!store.snapshot.values.contains { $0.contains("secret") }, "the pickle key is stored nowhere")
  }

  @Test("a command from the peer decrypts after its room key arrives over Olm; replays and other senders are refused")
  func readsThePeersMessages() async throws {
    let world = try World()
    let machine = machine(world, store: InMemoryTransportStateStore())
    try await machine.start()
    // The peer claims one of the bot's published one-time keys and sends its room key over Olm.
    let (peer, olm, bot) = try await peerOlm(world, machine)
    let peerCurve = try peer.identityKeys().curve25519
    let megolm = try MegolmOutboundSession.create()
    let toDevice = try Self.roomKeyEvent(megolm, over: olm, from: peer, to: bot)
    let command: JSONValue = [
      "type": "m.room.message", "room_id": .string(Self.room), "content": ["msgtype": "m.text", "body": "!help"],
    ]
    let event = { (id: String, sender: String, ciphertext: String) in
      Self.roomEvent(id: id, sender: sender, senderKey: peerCurve, session: megolm.id, ciphertext: ciphertext)
    }
    let ciphertext = try megolm.encrypt(CanonicalJSON.string(command))

    guard case .missingSession(let waiting) = await machine.decrypt(event("$1", Self.peer, ciphertext), room: Self.room)
    else {
      Issue.record("no key yet: the event waits")
      return
    }
    #expect(
      await machine.receive(try Self.sync(toDevice: [toDevice])) == [waiting],
      "the key that arrived is the one the event waits for")
    guard case .decrypted(let inner) = await machine.decrypt(event("$1", Self.peer, ciphertext), room: Self.room)
    else {
      Issue.record("the command decrypts once the key is there")
      return
    }
    #expect(inner.type == "m.room.message")
    #expect(inner.content["body"] == "!help")
    #expect(inner.sender == Self.peer)
    #expect(inner.eventID == "$1")
    guard case .failed = await machine.decrypt(event("$2", Self.peer, ciphertext), room: Self.room) else {
      Issue.record("the same ciphertext in another event is a replay")
      return
    }
    let other = try megolm.encrypt(CanonicalJSON.string(command))
    guard case .failed = await machine.decrypt(event("$3", "@mallory:localhost", other), room: Self.room) else {
      Issue.record("another user cannot use the peer's session")
      return
    }
  }

  /// A Megolm room key as the peer sends it to the bot over Olm (`m.room_key` in an `m.room.encrypted` to-device).
  static func roomKeyEvent(
    _ megolm: MegolmOutboundSession, over olm: OlmSession, from peer: OlmAccount,
    to bot: (curve25519: String, ed25519: String)
  ) throws -> MatrixEvent {
    try peerToDevice(
      type: "m.room_key",
      content: [
        "algorithm": "m.megolm.v1.aes-sha2", "room_id": .string(Self.room), "session_id": .string(megolm.id),
        "session_key": .string(try megolm.sessionKey()),
      ], over: olm, from: peer, to: bot)
  }

  /// An Olm-encrypted to-device event of `type` from the peer to the bot.
  static func peerToDevice(
    type: String, content: JSONValue, over olm: OlmSession, from peer: OlmAccount,
    to bot: (curve25519: String, ed25519: String)
  ) throws -> MatrixEvent {
    let payload: JSONValue = [
      "type": .string(type), "sender": .string(Self.peer), "recipient": .string(Self.bot),
      "recipient_keys": ["ed25519": .string(bot.ed25519)],
      "keys": ["ed25519": .string(try peer.identityKeys().ed25519)], "content": content,
    ]
    let sealed = try olm.encrypt(CanonicalJSON.string(payload))
    return MatrixEvent(
      type: "m.room.encrypted", sender: Self.peer,
      content: [
        "algorithm": "m.olm.v1.curve25519-aes-sha2", "sender_key": .string(try peer.identityKeys().curve25519),
        "ciphertext": [bot.curve25519: ["type": .number(Double(sealed.type)), "body": .string(sealed.body)]],
      ])
  }

  /// The peer's account and an Olm session from it to the started `machine`, on one of the bot's published one-time
  /// keys, with the bot's keys to address it.
  func peerOlm(_ world: World, _ machine: LibOlmEncryption) async throws -> (
    peer: OlmAccount, olm: OlmSession, bot: (curve25519: String, ed25519: String)
  ) {
    let bot = (curve25519: await machine.identity.curve25519, ed25519: await machine.identity.ed25519)
    let keys = try #require(world.seen.withLock { $0.uploaded.first }?["one_time_keys"]?.objectValue)
    let oneTimeKey = try #require(keys.values.first?["key"]?.stringValue)
    let peer = try OlmAccount.unpickle(world.peerPickle, key: World.key)
    let olm = try OlmSession.outbound(account: peer, theirIdentityKey: bot.curve25519, theirOneTimeKey: oneTimeKey)
    return (peer, olm, bot)
  }

  /// A Megolm-encrypted room event from the peer's device.
  static func roomEvent(id: String, sender: String, senderKey: String, session: String, ciphertext: String)
    -> MatrixEvent
  {
    MatrixEvent(
      type: "m.room.encrypted", sender: sender, eventID: id,
      content: [
        "algorithm": "m.megolm.v1.aes-sha2", "sender_key": .string(senderKey), "session_id": .string(session),
        "ciphertext": .string(ciphertext), "device_id": .string(Self.peerDevice),
      ])
  }

  /// A sync response carrying only to-device events.
  static func sync(toDevice events: [MatrixEvent]) throws -> MatrixSyncResponse {
    try JSONDecoder().decode(
      MatrixSyncResponse.self,
      from: JSONEncoder().encode(
        ["next_batch": "s1", "to_device": ["events": events]] as [String: JSONValueOrEvent]))
  }

  @Test("with one Megolm session kept in memory, a session pushed out is read back from the store and still decrypts")
  func inboundSessionsOutOfMemory() async throws {
    let world = try World()
    let machine = machine(world, store: InMemoryTransportStateStore(), inboundSessionsInMemory: 1)
    try await machine.start()
    let bot = await machine.identity
    let keys = try #require(world.seen.withLock { $0.uploaded.first }?["one_time_keys"]?.objectValue)
    let oneTimeKey = try #require(keys.values.first?["key"]?.stringValue)
    let peer = try OlmAccount.unpickle(world.peerPickle, key: World.key)
    let peerCurve = try peer.identityKeys().curve25519
    let olm = try OlmSession.outbound(account: peer, theirIdentityKey: bot.curve25519, theirOneTimeKey: oneTimeKey)
    let (first, second) = (try MegolmOutboundSession.create(), try MegolmOutboundSession.create())
    _ = await machine.receive(
      try Self.sync(toDevice: [
        try Self.roomKeyEvent(first, over: olm, from: peer, to: bot),
        try Self.roomKeyEvent(second, over: olm, from: peer, to: bot),
      ]))
    #expect(await machine.inboundSessionsHeld == 1)

    // Each message takes its session from the store in turn, pushing the other one out.
    for (number, session) in [first, second, first].enumerated() {
      let command: JSONValue = [
        "type": "m.room.message", "room_id": .string(Self.room),
        "content": ["msgtype": "m.text", "body": .string("!status \(number)")],
      ]
      let event = Self.roomEvent(
        id: "$\(number)", sender: Self.peer, senderKey: peerCurve, session: session.id,
        ciphertext: try session.encrypt(CanonicalJSON.string(command)))
      guard case .decrypted(let inner) = await machine.decrypt(event, room: Self.room) else {
        Issue.record("message \(number) decrypts with its session read back from the store")
        return
      }
      #expect(inner.content["body"] == .string("!status \(number)"))
      #expect(await machine.inboundSessionsHeld == 1)
    }
  }

  @Test("rotation after the room's message period")
  func rotatesAfterMessages() async throws {
    let world = try World()
    let store = InMemoryTransportStateStore()
    let machine = machine(world, store: store)
    try await machine.start()
    await machine.setRotation(room: Self.room, milliseconds: 604_800_000, messages: 2)
    var sessions: [String] = []
    for n in 0..<3 {
      let event = try await machine.encrypt(
        ["body": .string("\(n)")], type: "m.room.message", room: Self.room, transactionID: "t\(n)")
      sessions.append(try #require(event["session_id"]?.stringValue))
    }
    #expect(sessions[0] == sessions[1])
    #expect(sessions[2] != sessions[1], "the third message starts a new session")
  }
}

extension LibOlmEncryption {
  func setRotation(room: String, milliseconds: Int64, messages: Int) {
    rotation[room] = (milliseconds, messages)
  }
}

@Suite struct MatrixEncryptionSetupTests {
  @Test("check's view of the stored keys: none yet, ready with the fingerprint, or a wrong pickle key")
  func states() async throws {
    #expect(MatrixEncryptionSetup.state(storedAccount: nil, pickleKey: "k") == .notCreated)
    let world = try LibOlmEncryptionTests.World()
    let store = InMemoryTransportStateStore()
    let machine = LibOlmEncryptionTests().machine(world, store: store, pickleKey: "right")
    try await machine.start()
    let stored = store.snapshot[MatrixEncryptionSetup.accountKey]
    let fingerprint = try #require(await machine.fingerprint())
    #expect(
      MatrixEncryptionSetup.state(storedAccount: stored, pickleKey: "right")
        == .ready(deviceID: "BOTDEVICE", fingerprint: fingerprint, published: true))
    guard case .wrongPickleKey = MatrixEncryptionSetup.state(storedAccount: stored, pickleKey: "wrong") else {
      Issue.record("a wrong pickle key is reported")
      return
    }
    #expect(MatrixEncryptionSetup.grouped("abcdefghij") == "abcd efgh ij")
  }
}

/// A sync answer's top level for `JSONEncoder` (a string or the to-device events).
enum JSONValueOrEvent: Encodable, ExpressibleByStringLiteral, ExpressibleByDictionaryLiteral {
  case string(String)
  case events([String: [MatrixEvent]])

  init(stringLiteral value: String) { self = .string(value) }
  init(dictionaryLiteral elements: (String, [MatrixEvent])...) {
    self = .events(Dictionary(uniqueKeysWithValues: elements))
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .string(let value): try container.encode(value)
    case .events(let value): try container.encode(value)
    }
  }
}
