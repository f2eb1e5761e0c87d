import AwfulBotApp
import ChatBridge
import Foundation

/// The encrypted room's person: `scripts/lib/e2ee-human.py` (matrix-nio + libolm, Element's policy, cross-signed),
/// the client `scripts/crash-matrix` and the Matrix tests use, driven over JSON lines on its stdin and stdout. It
/// creates the encrypted room, stays in sync for the whole soak and at the end decrypts the bot's events itself.
actor SoakEncryptedMember {
  private let process = Process()
  private let input: FileHandle
  private var lines: AsyncStream<String>.Iterator
  private(set) var deviceID = ""

  /// Starts the client (`python` running `script`, its store and log in `directory`) and logs the account in with
  /// cross-signing.
  init(python: String, script: String, directory: URL, userID: String, password: String) async throws {
    let store = directory.appendingPathComponent("member-store")
    try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
    let log = directory.appendingPathComponent("member.log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let stdin = Pipe()
    let stdout = Pipe()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [script, store.path]
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = try FileHandle(forWritingTo: log)
    try process.run()
    input = stdin.fileHandleForWriting
    lines = LineReader.lines(from: stdout.fileHandleForReading).makeAsyncIterator()
    let answer = try await request([
      "cmd": "login", "user": .string(userID), "password": .string(password), "cross_sign": true,
      "policy": "element",
    ])
    deviceID = answer["device"]?.stringValue ?? ""
  }

  /// An encrypted private room with `invite` invited; returns its id.
  func createRoom(name: String, invite: [String]) async throws -> String {
    let answer = try await request([
      "cmd": "create_room", "name": .string(name), "invite": .array(invite.map { .string($0) }),
    ])
    guard let room = answer["room"]?.stringValue else { throw SoakError.setup("the member's room has no id") }
    return room
  }

  /// What the member reads of `sender`'s events in the room: the bodies it could decrypt, and how many events were
  /// sent in clear, could not be decrypted, or came from a device Element would not trust.
  struct History: Sendable {
    var bodies: [String] = []
    var unencrypted = 0
    var undecryptable = 0
    var insecure = 0
  }

  func history(room: String, sender: String, wait: Int) async throws -> History {
    let answer = try await request(
      ["cmd": "history", "room": .string(room), "sender": .string(sender), "wait": .number(Double(wait))])
    var history = History()
    for event in answer["events"]?.arrayValue ?? [] {
      let encrypted = event["encrypted"]?.boolValue ?? false
      let decrypted = event["decrypted"]?.boolValue ?? false
      if !encrypted { history.unencrypted += 1 }
      if encrypted && !decrypted { history.undecryptable += 1 }
      if decrypted && event["secure"]?.boolValue != true { history.insecure += 1 }
      if let body = event["body"]?.stringValue { history.bodies.append(body) }
    }
    return history
  }

  /// Ends the client: at the end of its input it closes and exits; it gets 5 s before a SIGTERM.
  func stop() async {
    try? input.close()
    let deadline = Date().addingTimeInterval(5)
    while process.isRunning, Date() < deadline { try? await Task.sleep(for: .milliseconds(100)) }
    if process.isRunning { process.terminate() }
  }

  private func request(_ body: JSONValue) async throws -> JSONValue {
    let data = try JSONEncoder().encode(body)
    try input.write(contentsOf: data + Data("\n".utf8))
    // An actor's stored iterator cannot be advanced in place across an await; a copy shares its stream.
    var iterator = lines
    let next = await iterator.next(isolation: self)
    lines = iterator
    guard let line = next else { throw SoakError.setup("the member's client exited (member.log)") }
    let answer = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
    guard answer["ok"]?.boolValue == true else {
      throw SoakError.setup("the member's client: \(answer["error"]?.stringValue ?? line)")
    }
    return answer
  }
}
