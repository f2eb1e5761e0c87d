import AwfulBotIRCTestKit
import AwfulBotTestKit
import ChatBridge
import NIOCore
import NIOPosix
import Testing

@testable import IRCTransport

/// The client's state as values (issue 45): what belongs to one connection (`IRCConnection`: keepalive, send ledger,
/// registration, channels) is made new for each one, and what outlives connections (history, channel wishes,
/// receipts, the CTCP limit) is kept apart. Time is passed in; nothing here waits on a clock except the reconnect.
@Suite("IRC: connection state made new per connection", .timeLimit(.minutes(1)))
struct IRCConnectionValuesTests {
  let start = ContinuousClock.now

  // MARK: Keepalive

  @Test("keepalive: registration is bounded, a quiet link gets one PING, an unanswered PING ends it, a line clears it")
  func keepaliveVerdicts() {
    var keepalive = IRCKeepalive(openedAt: start)
    func check(_ seconds: Double, registered: Bool) -> IRCKeepalive.Verdict {
      keepalive.check(
        now: start + .seconds(seconds), registered: registered, interval: .seconds(60), timeout: .seconds(30),
        registrationTimeout: .seconds(10))
    }
    #expect(check(9, registered: false) == .quiet)
    #expect(check(11, registered: false) == .registrationTimedOut)
    #expect(check(59, registered: true) == .quiet, "quiet for less than the interval")
    #expect(check(61, registered: true) == .ping)
    #expect(keepalive.pingSentAt == start + .seconds(61))
    #expect(check(80, registered: true) == .quiet, "one PING at a time, waiting for its answer")
    #expect(check(92, registered: true) == .pingTimedOut)
    keepalive.received(at: start + .seconds(93))
    #expect(keepalive.pingSentAt == nil && keepalive.lastReceived == start + .seconds(93))
    #expect(check(150, registered: true) == .quiet, "measured from the last line")
  }

  @Test("keepalive: the nick is asked for at once before registering, then every interval, or at once when forced")
  func nickReclaim() {
    var keepalive = IRCKeepalive(openedAt: start)
    keepalive.registered(at: start)
    func due(_ seconds: Double, force: Bool = false) -> Bool {
      keepalive.reclaimDue(now: start + .seconds(seconds), every: .seconds(30), force: force)
    }
    #expect(!due(29))
    #expect(due(31))
    #expect(!due(40), "counted from the last attempt")
    #expect(due(41, force: true))
  }

  // MARK: Send ledger

  @Test("ledger: PING-acknowledged sends are delivered by their PONG, in order, with the connection in the receipt")
  func ledgerByPing() {
    var ledger = IRCSendLedger<String>(connectionID: 3)
    ledger.begin(id: 7, target: "#goons", key: "k7", waiter: "seven", byEcho: false)
    ledger.lineWritten(7)
    ledger.lineWritten(7)
    #expect(ledger.allWritten(7, at: start) == nil, "waits for a PING")
    ledger.begin(id: 8, target: "#goons", key: "k8", waiter: "eight", byEcho: false)
    ledger.lineWritten(8)
    _ = ledger.allWritten(8, at: start)
    #expect(!ledger.needsAcknowledgement(readySend: true, batch: 8), "more to write first")
    #expect(ledger.needsAcknowledgement(readySend: true, batch: 2), "the batch is full")
    #expect(ledger.needsAcknowledgement(readySend: false, batch: 8))
    let ids = ledger.takeUnacknowledged()
    #expect(ids == [7, 8] && ledger.unacknowledged.isEmpty)
    ledger.awaitPong(token: "awfulbot-ack-1", for: ids)
    #expect(ledger.acknowledge(token: "someone-else").isEmpty)
    let settled = ledger.acknowledge(token: "awfulbot-ack-1")
    #expect(settled.map(\.waiter) == ["seven", "eight"])
    #expect(settled.map { try? $0.result.get().id } == ["irc:3.7:2", "irc:3.8:1"])
    #expect(ledger.inFlight.isEmpty && ledger.ackTokens.isEmpty)
  }

  @Test("ledger: echo-acknowledged sends finish with their last echo; missing echoes fall back to a PING")
  func ledgerByEcho() {
    var ledger = IRCSendLedger<String>(connectionID: 1)
    ledger.begin(id: 1, target: "#Goons", key: "k1", waiter: "one", byEcho: true)
    ledger.lineWritten(1)
    ledger.lineWritten(1)
    #expect(ledger.echoed(target: "#goons").settled == nil, "an echo may come before the last line is written")
    #expect(ledger.allWritten(1, at: start) == nil)
    #expect(ledger.unacknowledged.isEmpty, "no PING needed")
    #expect((try? ledger.echoed(target: "#GOONS").settled?.result.get())?.id == "irc:1.1:2")
    #expect(ledger.echoed(target: "#goons").settled == nil, "nothing left to echo")

    ledger.begin(id: 2, target: "#goons", key: "k2", waiter: "two", byEcho: true)
    ledger.lineWritten(2)
    _ = ledger.allWritten(2, at: start)
    #expect(ledger.takeMissingEchoes(now: start + .seconds(5), wait: .seconds(10)).isEmpty)
    #expect(ledger.takeMissingEchoes(now: start + .seconds(11), wait: .seconds(10)) == [2])
    #expect(ledger.inFlight[2]?.byEcho == false, "now waits for the PONG")
    ledger.awaitPong(token: "t", for: [2])
    #expect(ledger.acknowledge(token: "t").map(\.waiter) == ["two"])
  }

  @Test("ledger: a refusal fails the oldest send to the target, at once when acknowledged by echo")
  func ledgerRefusal() {
    var ledger = IRCSendLedger<String>(connectionID: 1)
    ledger.begin(id: 1, target: "#goons", key: "k1", waiter: "by ping", byEcho: false)
    ledger.begin(id: 2, target: "#goons", key: "k2", waiter: "by echo", byEcho: true)
    let first = ledger.refused(target: "#Goons", error: .permanent(reason: "no"))
    #expect(first.matched && first.settled == nil, "a PING-acknowledged send fails when its PONG comes")
    let second = ledger.refused(target: "#goons", error: .permanent(reason: "no"))
    #expect(second.settled?.waiter == "by echo")
    #expect(!ledger.refused(target: "#goons", error: .permanent(reason: "no")).matched, "nothing left to fail")
    _ = ledger.allWritten(1, at: start)
    ledger.awaitPong(token: "t", for: ledger.takeUnacknowledged())
    let settled = ledger.acknowledge(token: "t")
    #expect(settled.count == 1)
    #expect(throws: ChatSendError.self) { try settled[0].result.get() }
  }

  // MARK: The connection

  @Test("a reconnect starts from a new value: clean keepalive, empty ledger, nothing of registration or channels")
  func reconnectIsANewValue() async throws {
    let bucket = IRCTokenBucket(burst: 2, interval: .seconds(1))
    var used = IRCConnection(id: 0, link: nil, nick: "awfulbot", openedAt: start, bucket: bucket)
    used.registration.registered = true
    used.registration.currentNick = "awfulbot_"
    used.registration.enabledCaps = ["echo-message"]
    used.membership.channels["#goons"] = IRCChannelState(name: "#goons")
    used.membership.joinFailures["#banned"] = "banned"
    _ = used.keepalive.check(
      now: start + .seconds(120), registered: true, interval: .seconds(60), timeout: .seconds(30),
      registrationTimeout: .seconds(10))
    let (waiter, waiting) = await Self.unsettledWaiter()
    defer { waiter.resume(throwing: CancellationError()) }
    used.ledger.begin(id: 1, target: "#goons", key: "k", waiter: waiter, byEcho: false)
    used.noteFailure(.closed)
    used.lineInHand = "PING :x"
    let usedToken = used.nextToken("ack")
    #expect(usedToken == "awfulbot-ack-1")
    #expect(used.keepalive.pingSentAt != nil && used.ledger.isInFlight(1), "the test dirtied what it checks")

    let closed = used.closed(nick: "awfulbot", at: start + .seconds(130))
    Self.expectFresh(closed, nick: "awfulbot", openedAt: start + .seconds(130))
    #expect(closed.id == used.id && closed.link == nil)

    let socket = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .bind(host: "127.0.0.1", port: 0).get()
    defer { socket.close(promise: nil) }
    let (writer, _) = NIOAsyncChannelOutboundWriter<String>.makeTestingWriter()
    let next = closed.reopened(
      on: .init(writer: writer, channel: socket), nick: "awfulbot", at: start + .seconds(140),
      bucket: IRCTokenBucket())
    Self.expectFresh(next, nick: "awfulbot", openedAt: start + .seconds(140))
    #expect(next.id == used.id + 1 && next.isOpen(next.id) && !next.isOpen(used.id))
    var tokens = next
    let nextToken = tokens.nextToken("ack")
    #expect(nextToken == "awfulbot-ack-1", "tokens are numbered per connection")
    #expect(used.ledger.unsettled.count == 1, "what the closed connection had in flight is the caller's to fail")
    _ = waiting
  }

  /// A real continuation for a ledger entry, with the task waiting on it (resume it when done).
  static func unsettledWaiter() async -> (CheckedContinuation<DeliveryReceipt, any Error>, Task<Void, Never>) {
    let (stream, handOver) = AsyncStream.makeStream(of: CheckedContinuation<DeliveryReceipt, any Error>.self)
    let waiting = Task { _ = try? await withCheckedThrowingContinuation { handOver.yield($0) } }
    var iterator = stream.makeAsyncIterator()
    return (await iterator.next()!, waiting)
  }

  /// Every field of a connection as a new one has it.
  static func expectFresh(
    _ connection: IRCConnection, nick: String, openedAt: ContinuousClock.Instant,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let registration = connection.registration
    #expect(!registration.registered && registration.currentNick == nick, sourceLocation: sourceLocation)
    #expect(registration.enabledCaps.isEmpty && registration.offeredCaps.isEmpty, sourceLocation: sourceLocation)
    #expect(connection.membership.channels.isEmpty, sourceLocation: sourceLocation)
    #expect(connection.membership.joinFailures.isEmpty, sourceLocation: sourceLocation)
    #expect(connection.membership.joining.isEmpty, sourceLocation: sourceLocation)
    let keepalive = connection.keepalive
    #expect(keepalive.openedAt == openedAt && keepalive.lastReceived == openedAt, sourceLocation: sourceLocation)
    #expect(keepalive.pingSentAt == nil && keepalive.lastReclaim == nil, sourceLocation: sourceLocation)
    #expect(connection.ledger.inFlight.isEmpty, sourceLocation: sourceLocation)
    #expect(connection.ledger.ackTokens.isEmpty, sourceLocation: sourceLocation)
    #expect(connection.ledger.unacknowledged.isEmpty, sourceLocation: sourceLocation)
    #expect(connection.ledger.connectionID == connection.id, sourceLocation: sourceLocation)
    #expect(connection.failure == nil && connection.lineInHand == nil, sourceLocation: sourceLocation)
  }

  // MARK: What outlives connections

  @Test("history: the state told once per change; a failure before the first registration is kept, not after")
  func history() {
    var history = IRCConnectionHistory()
    #expect(history.state(registeredAs: nil) == .connecting)
    #expect(history.toPublish(.connecting) == .connecting)
    #expect(history.toPublish(.connecting) == nil, "told once")
    history.failed(.saslFailed(numeric: 904, message: "no"))
    #expect(history.failureBeforeFirstRegistration == .saslFailed(numeric: 904, message: "no"))
    history.failed(nil)
    #expect(history.state(registeredAs: nil) == .reconnecting(.closed))
    history.registered()
    #expect(history.registrations == 1 && history.lastFailure == nil)
    #expect(history.state(registeredAs: "awfulbot") == .registered(nick: "awfulbot"))
    #expect(history.toPublish(.registered(nick: "awfulbot")) == .connected)
    history.failed(.saslFailed(numeric: 904, message: "no"))
    #expect(history.failureBeforeFirstRegistration == nil, "registered once: a reconnect's failure is retried")
    history.stop()
    #expect(history.state(registeredAs: "awfulbot") == .stopped)
    #expect(history.toPublish(.stopped) == nil, "stopping is told by the transport")
  }

  @Test("channel wishes: a kick holds until the bot is back or invited; a removed channel until the config names it")
  func wishes() {
    var wishes = IRCChannelWishes()
    #expect(wishes.refusal("#goons") == nil)
    wishes.kicked(from: "#Goons")
    #expect(wishes.refusal("#goons") == "kicked from #goons; invite the bot to send there again")
    wishes.welcomed(to: "#GOONS")
    #expect(wishes.refusal("#goons") == nil)
    wishes.removed("#old")
    wishes.kicked(from: "#old")
    #expect(wishes.refusal("#Old") == "the bot left #Old: the config no longer names it")
    wishes.added("#old")
    #expect(wishes.refusal("#old") == nil, "named again: neither the removal nor the kick holds")
  }

  @Test("receipts: remembered by key up to the capacity, oldest forgotten first")
  func receipts() {
    var receipts = IRCReceiptMemory(capacity: 2)
    receipts.remember(DeliveryReceipt(id: "irc:1.1:1"), for: "a")
    receipts.remember(DeliveryReceipt(id: "irc:1.2:1"), for: "b")
    receipts.remember(DeliveryReceipt(id: "irc:1.2:1"), for: "b")
    #expect(receipts["a"]?.id == "irc:1.1:1", "remembering a key again does not push another out")
    receipts.remember(DeliveryReceipt(id: "irc:2.3:1"), for: "c")
    #expect(receipts["a"] == nil && receipts["b"] != nil && receipts["c"] != nil && receipts.count == 2)
  }

  @Test("CTCP: a run of refused requests is logged once, an answer ends the run")
  func ctcpAdmission() {
    var limiter = IRCCTCPLimiter(perSourceBurst: 1, perSourceInterval: .seconds(10), globalBurst: 10)
    #expect(limiter.admit("host", now: start) == .answer)
    #expect(limiter.admit("host", now: start) == .ignoreFirst)
    #expect(limiter.admit("host", now: start) == .ignore)
    #expect(limiter.admit("host", now: start + .seconds(11)) == .answer)
    #expect(limiter.admit("host", now: start + .seconds(11)) == .ignoreFirst)
  }

  // MARK: The client across a reconnect

  @Test("a send in flight when the link drops fails as retryable; the next connection starts with an empty ledger")
  func reconnectAgainstAServer() async throws {
    let base = IRCScriptedServer.registering(nick: "awfulbot", caps: nil)
    // The first connection drops as soon as it receives the line “drop”, before the send's PING is written.
    let script: IRCScriptedServer.Script = { connection, line in
      if connection == 0 && line.hasPrefix("PRIVMSG") && line.hasSuffix("drop") { return .close }
      return base(connection, line)
    }
    try await IRCScriptedServer.with(script) { server in
      let bot = try RunningIRCTransport(IRCSASLStopTests.configuration(port: server.port, sasl: false))
      let transport = bot.transport
      func say(_ text: String, key: String) async throws -> DeliveryReceipt {
        try await transport.send(OutgoingMessage(.answer(CommandAnswer(text))), to: "#goons", idempotencyKey: key)
      }
      let first = try await say("first", key: "k1")
      #expect(first.id.hasPrefix("irc:1."), "\(first.id)")
      await #expect(throws: ChatSendError.retryable(reason: "the IRC connection closed while sending", after: nil)) {
        try await say("drop", key: "k2")
      }
      try await waitUntil("the bot registered again", timeout: .seconds(20)) {
        let joined = await transport.client.membership.channels["#goons"] != nil
        return await transport.registrationCount() == 2 && joined
      }
      let connection = await transport.client.connection
      #expect(connection.id == 2)
      #expect(connection.ledger.inFlight.isEmpty && connection.ledger.ackTokens.isEmpty)
      #expect(connection.keepalive.pingSentAt == nil)
      // The receipts are the outbox's, not the connection's: a retry of a delivered send is not sent again.
      #expect(try await say("first", key: "k1") == first)
      let again = try await say("drop", key: "k2")
      #expect(again.id.hasPrefix("irc:2."), "\(again.id)")
      let written = server.lines(of: 1).filter { $0.hasPrefix("PRIVMSG") }
      #expect(written.count == 1 && written[0].hasSuffix("drop"), "only the failed send went again: \(written)")
      await bot.stop()
    }
  }
}
