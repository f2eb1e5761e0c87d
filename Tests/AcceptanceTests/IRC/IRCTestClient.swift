import AwfulBotIRCTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import NIOCore
import NIOPosix

/// A line as the test client received it, with the bytes it took on the wire (CR LF included) and when it came.
struct ReceivedLine: Sendable, CustomStringConvertible {
  let raw: String
  let wireBytes: Int
  let at: ContinuousClock.Instant
  let nick: String?
  let command: String
  let parameters: [String]

  var text: String { parameters.last ?? "" }
  var description: String { raw }

  /// A deliberately naive parser of its own, so the tests do not trust the code under test to read the lines.
  init(raw: String, wireBytes: Int, at: ContinuousClock.Instant) {
    self.raw = raw
    self.wireBytes = wireBytes
    self.at = at
    var rest = Substring(raw)
    if rest.hasPrefix("@"), let space = rest.firstIndex(of: " ") { rest = rest[rest.index(after: space)...] }
    var nick: String?
    if rest.hasPrefix(":"), let space = rest.firstIndex(of: " ") {
      let prefix = rest[rest.index(after: rest.startIndex)..<space]
      nick = prefix.split(separator: "!", maxSplits: 1).first.map(String.init)
      rest = rest[rest.index(after: space)...]
    }
    var trailing: String?
    if let colon = rest.range(of: " :") {
      trailing = String(rest[colon.upperBound...])
      rest = rest[..<colon.lowerBound]
    }
    var words = rest.split(separator: " ").map(String.init)
    self.command = words.isEmpty ? "" : words.removeFirst().uppercased()
    self.parameters = words + (trailing.map { [$0] } ?? [])
    self.nick = nick
  }
}

/// An IRC user on a plain TCP socket, for the other side of the bot: registers (optionally logging in with SASL
/// PLAIN), answers PINGs, records every line, and waits for lines matching a condition.
actor IRCTestClient {
  let nick: String
  private(set) var lines: [ReceivedLine] = []
  private(set) var isClosed = false
  private var writer: NIOAsyncChannelOutboundWriter<ByteBuffer>?
  private var pending: [UInt8] = []
  private var task: Task<Void, Never>?
  private let clock = ContinuousClock()

  private init(nick: String) { self.nick = nick }

  static func connect(
    nick: String, environment: IRCTestEnvironment, sasl: (account: String, password: String)? = nil
  ) async throws -> IRCTestClient {
    let client = IRCTestClient(nick: nick)
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .connect(host: environment.host, port: environment.port) { channel in
        channel.eventLoop.makeCompletedFuture {
          try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
        }
      }
    await client.start(channel)
    try await client.register(sasl: sasl)
    return client
  }

  private func start(_ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
    let ready = AsyncStream<Void>.makeStream()
    task = Task {
      try? await channel.executeThenClose { inbound, outbound in
        self.setWriter(outbound)
        ready.continuation.finish()
        for try await buffer in inbound { await self.feed(buffer) }
      }
      ready.continuation.finish()
      self.markClosed()
    }
    for await _ in ready.stream {}
  }

  private func setWriter(_ writer: NIOAsyncChannelOutboundWriter<ByteBuffer>) { self.writer = writer }
  private func markClosed() { isClosed = true }

  private func feed(_ buffer: ByteBuffer) async {
    pending += buffer.readableBytesView
    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
      var bytes = Array(pending[..<newline])
      let wire = newline + 1
      pending.removeFirst(wire)
      if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
      let line = ReceivedLine(raw: String(decoding: bytes, as: UTF8.self), wireBytes: wire, at: clock.now)
      lines.append(line)
      if line.command == "PING" { try? await send("PONG :\(line.text)") }
    }
  }

  func send(_ line: String) async throws {
    guard let writer else { throw TestClientError.notConnected }
    try await writer.write(ByteBuffer(string: line + "\r\n"))
  }

  private func register(sasl: (account: String, password: String)?) async throws {
    if let sasl {
      try await send("CAP REQ :sasl")
      try await send("NICK \(nick)")
      try await send("USER \(nick) 0 * :test client")
      _ = try await waitFor("CAP ACK") { $0.command == "CAP" && $0.parameters.dropFirst().first == "ACK" }
      try await send("AUTHENTICATE PLAIN")
      _ = try await waitFor("AUTHENTICATE +") { $0.command == "AUTHENTICATE" }
      let payload = Data("\(sasl.account)\0\(sasl.account)\0\(sasl.password)".utf8).base64EncodedString()
      try await send("AUTHENTICATE \(payload)")
      _ = try await waitFor("903") { $0.command == "903" || $0.command == "904" }
      try await send("CAP END")
    } else {
      try await send("NICK \(nick)")
      try await send("USER \(nick) 0 * :test client")
    }
    _ = try await waitFor("001", timeout: .seconds(15)) { $0.command == "001" }
  }

  /// Joins and waits for the server's confirmation.
  func join(_ channel: String) async throws {
    let mark = lines.count
    try await send("JOIN \(channel)")
    _ = try await waitFor("JOIN \(channel)", from: mark) {
      $0.command == "JOIN" && $0.nick == self.nick && $0.parameters.first?.lowercased() == channel.lowercased()
    }
  }

  /// Where the next wait should start looking.
  func mark() -> Int { lines.count }

  /// Returns once every line the server queued for this client before now has arrived: the PONG to a PING comes
  /// after them on the same connection. The bot's sends are acknowledged by the server (echo or PING) before its
  /// outbox marks them sent, so after `BotEngine.waitUntilNothingPending()` and this, whatever the bot said is here,
  /// and a test can check that something was not said without waiting out a fixed time.
  func roundTrip() async throws {
    let token = "sync-\(UUID().uuidString.prefix(8))"
    let mark = mark()
    try await send("PING :\(token)")
    try await waitFor("the PONG to \(token)", from: mark) { $0.command == "PONG" && $0.text == token }
  }

  /// The first line from `from` on that matches; fails after `timeout`.
  @discardableResult
  func waitFor(
    _ what: String, from: Int = 0, timeout: Duration = .seconds(10),
    where predicate: @Sendable (ReceivedLine) -> Bool
  ) async throws -> ReceivedLine {
    var index = from
    let found = try await readUntil(timeout: timeout) { () -> ReceivedLine? in
      while index < lines.count {
        if predicate(lines[index]) { return lines[index] }
        index += 1
      }
      return nil
    } until: {
      $0 != nil
    }
    guard let found else { throw TestClientError.timedOut(what, nick: nick, seen: lines.suffix(8).map(\.raw)) }
    return found
  }

  /// Every line from `from` on that matches, once `count` of them are there.
  func waitForCount(
    _ count: Int, _ what: String, from: Int = 0, timeout: Duration = .seconds(20),
    where predicate: @Sendable (ReceivedLine) -> Bool
  ) async throws -> [ReceivedLine] {
    let matching = try await readUntil(timeout: timeout) {
      lines[min(from, lines.count)...].filter(predicate)
    } until: {
      $0.count >= count
    }
    guard matching.count >= count else {
      throw TestClientError.timedOut(
        "\(count)× \(what) (got \(matching.count))", nick: nick, seen: lines.suffix(8).map(\.raw))
    }
    return Array(matching.prefix(count))
  }

  func waitUntilClosed(timeout: Duration = .seconds(10)) async throws {
    guard try await eventually(timeout: timeout, { isClosed }) else {
      throw TestClientError.timedOut("connection close", nick: nick, seen: [])
    }
  }

  func quit() async {
    try? await send("QUIT :bye")
    // The server closes the link once it has the QUIT (and only then is it sure to have been sent).
    try? await waitUntilClosed(timeout: .seconds(2))
    task?.cancel()
    _ = await task?.value
  }
}

enum TestClientError: Error, CustomStringConvertible {
  case notConnected
  case timedOut(String, nick: String, seen: [String])

  var description: String {
    switch self {
    case .notConnected: "the test client is not connected"
    case .timedOut(let what, let nick, let seen): "\(nick) timed out waiting for \(what); last lines: \(seen)"
    }
  }
}
