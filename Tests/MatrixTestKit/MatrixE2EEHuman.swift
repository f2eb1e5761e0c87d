import AwfulBotTestKit
import ChatBridge
import Foundation
import MatrixTransport
import Testing

/// A person with a real end-to-end encrypting client: matrix-nio with libolm (`scripts/lib/e2ee-human.py`) in the
/// venv `scripts/lib/synapse.sh` installs, driven over a JSON-lines pipe. Encrypts what it sends and decrypts what it
/// reads, as Element would; the account itself is registered like `MatrixHuman`'s.
package actor MatrixE2EEHuman {
  package let account: MatrixHuman
  package private(set) var deviceID = ""
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private var buffered: [UInt8] = []
  private let store: URL

  package static var isAvailable: Bool {
    SynapseEnvironment.isAvailable && python != nil && script != nil
  }

  package static let skipReason: Comment =
    "AWFULBOT_E2EE_PYTHON is not set: run under scripts/with-synapse, which installs matrix-nio[e2e] for these tests"

  private static var python: String? { ProcessInfo.processInfo.environment["AWFULBOT_E2EE_PYTHON"] }
  private static var script: String? { ProcessInfo.processInfo.environment["AWFULBOT_E2EE_HUMAN"] }

  /// A fresh account, logged in on a new encrypting device. By default the client behaves as Element does since
  /// April 2026: it cross-signs its own device and excludes insecure devices (no room keys for devices their owner
  /// did not cross-sign, and nothing shown from them). `crossSign: false` leaves this device unverified;
  /// `policy: "any"` trusts every device, as matrix-nio does by itself.
  package static func register(_ prefix: String, crossSign: Bool = true, policy: String = "element") async throws
    -> MatrixE2EEHuman
  {
    let human = try MatrixE2EEHuman(account: try await MatrixHuman.register(prefix))
    try await human.login(crossSign: crossSign, policy: policy)
    return human
  }

  /// Another device of an existing account (a second session), cross-signed or not.
  package static func anotherDevice(of account: MatrixHuman, crossSign: Bool, policy: String = "element")
    async throws -> MatrixE2EEHuman
  {
    let human = try MatrixE2EEHuman(account: account)
    try await human.login(crossSign: crossSign, policy: policy)
    return human
  }

  private init(account: MatrixHuman) throws {
    self.account = account
    store = TestScratch.path("awfulbot-e2ee")
    try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
    process.executableURL = URL(fileURLWithPath: try #require(Self.python))
    process.arguments = [try #require(Self.script), store.path]
    process.standardInput = input
    process.standardOutput = output
    try process.run()
  }

  package var userID: String { account.userID }

  private func login(crossSign: Bool, policy: String) async throws {
    let answer = try await request([
      "cmd": "login", "user": .string(account.userID), "password": .string(account.password),
      "cross_sign": .bool(crossSign), "policy": .string(policy),
    ])
    deviceID = answer["device"]?.stringValue ?? ""
  }

  /// Replaces the user's cross-signing identity with new keys and signs this device with them, as Element's "Reset
  /// identity" does (or anyone with the password). Returns the new master key.
  package func resetIdentity() async throws -> String {
    let answer = try await request(["cmd": "reset_identity"])
    return try #require(answer["master_key"]?.stringValue)
  }

  /// How this client judges a user's devices under Element's rule, from a fresh `/keys/query`.
  package struct DeviceTrust: Sendable {
    package var masterKey: String?
    /// Device id → nil when cross-signed by its owner, else why not.
    package var problems: [String: String?]
    package func isCrossSigned(_ device: String) -> Bool { problems[device].map { $0 == nil } ?? false }
  }

  package func deviceTrust(of user: String) async throws -> DeviceTrust {
    let answer = try await request(["cmd": "device_trust", "user": .string(user)])
    var problems: [String: String?] = [:]
    for (device, info) in answer["devices"]?.objectValue ?? [:] {
      problems[device] =
        info["cross_signed"]?.boolValue == true ? .some(nil) : .some(info["reason"]?.stringValue ?? "?")
    }
    return DeviceTrust(masterKey: answer["master_key"]?.stringValue, problems: problems)
  }

  /// One event of a room's whole history as this client reads it now.
  package struct HistoryEvent: Sendable {
    package var eventID: String
    package var encrypted: Bool
    package var decrypted: Bool
    package var body: String?
    package var sessionID: String?
    package var index: Int?
    package var secure: Bool
    /// The event's type and content as sent (from the payload when decrypted); nil and null when unreadable.
    package var type: String? = nil
    package var content: JSONValue = .null
    /// `m.relates_to` as the homeserver has it: an encrypted event's cleartext copy.
    package var cleartextRelation: JSONValue? = nil
    /// Why it could not be read, when it could not.
    package var error: String? = nil

    /// What a reaction is on and its key, from the cleartext relation (where the spec has clients read it).
    package var annotation: (target: String, key: String)? {
      guard type == "m.reaction", cleartextRelation?["rel_type"] == "m.annotation",
        let target = cleartextRelation?["event_id"]?.stringValue, let key = cleartextRelation?["key"]?.stringValue
      else { return nil }
      return (target, key)
    }

    /// The event an edit replaces, from the cleartext relation.
    package var replaces: String? {
      cleartextRelation?["rel_type"] == "m.replace" ? cleartextRelation?["event_id"]?.stringValue : nil
    }
  }

  /// Every message `sender` sent to the room, decrypted where this client has the key, and the Megolm indexes used
  /// by more than one event.
  package func history(in room: String, from sender: String) async throws
    -> (events: [HistoryEvent], indexReuse: Int)
  {
    let answer = try await request(["cmd": "history", "room": .string(room), "sender": .string(sender)])
    let events = (answer["events"]?.arrayValue ?? []).map { item in
      HistoryEvent(
        eventID: item["event"]?.stringValue ?? "", encrypted: item["encrypted"]?.boolValue ?? false,
        decrypted: item["decrypted"]?.boolValue ?? false, body: item["body"]?.stringValue,
        sessionID: item["session_id"]?.stringValue, index: item["index"]?.intValue,
        secure: item["secure"]?.boolValue ?? false, type: item["type"]?.stringValue, content: item["content"] ?? .null,
        cleartextRelation: item["relates_to"].flatMap { $0 == .null ? nil : $0 }, error: item["error"]?.stringValue)
    }
    return (events, answer["index_reuse"]?.arrayValue?.count ?? 0)
  }

  /// The reactions `sender` sent to the room, decrypted where they were encrypted, once `condition` holds for them
  /// (or after `timeout`, what there is).
  package func reactions(
    in room: String, from sender: String, timeout: Duration = .seconds(20),
    until condition: ([HistoryEvent]) -> Bool = { !$0.isEmpty }
  ) async throws -> [HistoryEvent] {
    try await waitForHistory(
      in: room, from: sender, timeout: timeout, matching: { $0.type == "m.reaction" }, until: condition)
  }

  /// The edits (`m.replace`) `sender` sent to the room, once `condition` holds for them (or after `timeout`).
  package func edits(
    in room: String, from sender: String, timeout: Duration = .seconds(20),
    until condition: ([HistoryEvent]) -> Bool = { !$0.isEmpty }
  ) async throws -> [HistoryEvent] {
    try await waitForHistory(
      in: room, from: sender, timeout: timeout, matching: { $0.replaces != nil }, until: condition)
  }

  private func waitForHistory(
    in room: String, from sender: String, timeout: Duration, matching: (HistoryEvent) -> Bool,
    until condition: ([HistoryEvent]) -> Bool
  ) async throws -> [HistoryEvent] {
    try await readUntil(every: .milliseconds(200), timeout: timeout) {
      try await history(in: room, from: sender).events.filter(matching)
    } until: {
      condition($0)
    }
  }

  /// An encrypted private room with these users invited; `history` is its `m.room.history_visibility`.
  package func createEncryptedRoom(name: String, invite: [String], history: String = "shared") async throws
    -> String
  {
    let answer = try await request([
      "cmd": "create_room", "name": .string(name), "invite": .array(invite.map { .string($0) }),
      "history": .string(history),
    ])
    return try #require(answer["room"]?.stringValue)
  }

  /// What an invite with the room's history handed over (MSC4268): the sessions in the key bundle, the sessions
  /// listed as withheld, and how many of the invitee's devices the bundle reached.
  package struct HistoryHandover: Sendable {
    package var shared: [String]
    package var withheld: [String]
    package var devices: Int
  }

  /// Invites `user` and sends their cross-signed devices the keys of the room's shared history (see
  /// `e2ee-human.py`, `invite_with_history`).
  package func inviteWithHistory(_ user: String, to room: String) async throws -> HistoryHandover {
    let answer = try await request(["cmd": "invite_with_history", "room": .string(room), "user": .string(user)])
    return HistoryHandover(
      shared: (answer["shared"]?.arrayValue ?? []).compactMap(\.stringValue),
      withheld: (answer["withheld"]?.arrayValue ?? []).compactMap(\.stringValue),
      devices: answer["devices"]?.intValue ?? 0)
  }

  /// Waits for the key bundle `inviter` sent for `room` and imports its keys; returns the sessions imported and
  /// those the bundle lists as withheld.
  package func acceptHistory(in room: String, from inviter: String) async throws
    -> (imported: [String], withheld: [String])
  {
    let answer = try await request(["cmd": "accept_history", "room": .string(room), "inviter": .string(inviter)])
    return (
      (answer["imported"]?.arrayValue ?? []).compactMap(\.stringValue),
      (answer["withheld"]?.arrayValue ?? []).compactMap(\.stringValue)
    )
  }

  package func join(_ room: String) async throws {
    _ = try await request(["cmd": "join", "room": .string(room)])
  }

  package func invite(_ user: String, to room: String) async throws {
    _ = try await request(["cmd": "invite", "room": .string(room), "user": .string(user)])
  }

  /// Sends an encrypted `m.text`; returns its event id.
  @discardableResult
  package func say(_ text: String, in room: String) async throws -> String {
    let answer = try await request(["cmd": "send", "room": .string(room), "text": .string(text)])
    return try #require(answer["event"]?.stringValue)
  }

  /// An encrypted rich reply to `eventID` with the classic quoted fallback (see `MatrixHuman.reply(to:text:in:)`),
  /// its relation also in the cleartext, as Element sends it; returns its event id.
  @discardableResult
  package func reply(to eventID: String, text: String, in room: String) async throws -> String {
    let answer = try await request([
      "cmd": "reply", "room": .string(room), "event": .string(eventID), "text": .string(text),
    ])
    return try #require(answer["event"]?.stringValue)
  }

  /// An encrypted `m.text` that answers nothing, with "in reply to `eventID`" put in the cleartext only: what a
  /// homeserver that rewrites the envelope of this member's line makes of it; returns its event id.
  @discardableResult
  package func say(_ text: String, in room: String, clearRelationTo eventID: String) async throws -> String {
    let answer = try await request([
      "cmd": "send_with_clear_relation", "room": .string(room), "text": .string(text), "event": .string(eventID),
    ])
    return try #require(answer["event"]?.stringValue)
  }

  /// Reacts to `eventID` with `key`: encrypted by default, as Element X does (the relation, key included, also in
  /// the cleartext); `encrypted: false` sends it plain, as Element Web does even in encrypted rooms.
  @discardableResult
  package func react(to eventID: String, key: String, in room: String, encrypted: Bool = true) async throws -> String {
    let answer = try await request([
      "cmd": "react", "room": .string(room), "event": .string(eventID), "key": .string(key),
      "encrypted": .bool(encrypted),
    ])
    return try #require(answer["event"]?.stringValue)
  }

  /// One message as this client saw it: decrypted or not, and the content (the inner content when decrypted).
  package struct Seen: Sendable {
    package var eventID: String
    package var decrypted: Bool
    package var undecryptable: Bool
    /// Decryptable, but sent from a device its owner did not cross-sign: Element shows nothing of it.
    package var insecure: Bool
    package var content: JSONValue
    package var body: String? { content["body"]?.stringValue }
    package var formattedBody: String? { content["formatted_body"]?.stringValue }
    package var msgtype: String? { content["msgtype"]?.stringValue }
    package var replyTo: String? { content["m.relates_to"]?["m.in_reply_to"]?["event_id"]?.stringValue }
  }

  /// The messages `sender` sent to the room since this client joined, once there are at least `count` (or after
  /// `timeout`, whatever arrived).
  /// With `containing`, waits instead for a message whose (decrypted) body contains that text. The room's history
  /// from before this client joined shows up too (undecryptable for it, as it should be).
  package func messages(
    in room: String, from sender: String, count: Int = 1, containing: String? = nil, timeout: Int = 30
  ) async throws -> [Seen] {
    var command: [String: JSONValue] = [
      "cmd": "messages", "room": .string(room), "sender": .string(sender), "count": .number(Double(count)),
      "timeout": .number(Double(timeout)),
    ]
    if let containing { command["contains"] = .string(containing) }
    let answer = try await request(.object(command))
    return (answer["messages"]?.arrayValue ?? []).map { item in
      Seen(
        eventID: item["event"]?.stringValue ?? "", decrypted: item["decrypted"]?.boolValue ?? false,
        undecryptable: item["type"]?.stringValue == "MegolmEvent",
        insecure: item["insecure"]?.boolValue ?? false, content: item["content"] ?? [:])
    }
  }

  package func quit() async {
    try? input.fileHandleForWriting.write(contentsOf: Array(#"{"cmd":"quit"}"#.utf8) + [10])
    try? input.fileHandleForWriting.close()
    // Polled, not `waitUntilExit()`: a blocked cooperative thread stalls every other test of the run.
    _ = try? await readUntil(every: .milliseconds(50), timeout: .seconds(10)) {
      process.isRunning
    } until: {
      !$0
    }
    if process.isRunning { process.terminate() }
    try? FileManager.default.removeItem(at: store)
  }

  private func request(_ body: JSONValue) async throws -> JSONValue {
    let encoder = JSONEncoder()
    let line = try encoder.encode(body) + [10]
    try input.fileHandleForWriting.write(contentsOf: line)
    let reply = try await readLine()
    let answer = try JSONDecoder().decode(JSONValue.self, from: Data(reply))
    guard answer["ok"]?.boolValue == true else {
      throw MatrixHuman.HumanError(
        description:
          "e2ee client: \(body["cmd"]?.stringValue ?? "?") failed: \(answer["error"]?.stringValue ?? "\(answer)")")
    }
    return answer
  }

  /// Reads up to the next newline; the blocking read runs on a dispatch queue, not on the actor.
  private func readLine() async throws -> [UInt8] {
    while true {
      if let newline = buffered.firstIndex(of: 10) {
        let line = Array(buffered[..<newline])
        buffered.removeSubrange(...newline)
        return line
      }
      let handle = output.fileHandleForReading
      let chunk: [UInt8] = await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: Array(handle.availableData)) }
      }
      guard !chunk.isEmpty else { throw MatrixHuman.HumanError(description: "e2ee client exited") }
      buffered += chunk
    }
  }
}
