import ChatBridge
import Foundation
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle

/// The state of one IRC connection and everything that outlives it (queued sends, delivered receipts). One actor
/// so the inbound loop, the writer, the keepalive and callers of `send` never race on it. Split over several files:
/// registration, inbound handling, sending.
actor IRCClient {
  /// The settings in force; `reconfigure` replaces the ones that can change on a live connection.
  var configuration: IRCTransportConfiguration
  /// How long a send waits for a connection and a join (fixed for the life of the client, read outside the actor).
  let sendWaitSeconds: Double
  let logger: Logger
  let emit: @Sendable (ChatEvent) -> Void
  let bucket: IRCTokenBucket
  let renderer: IRCRenderer
  var permissions: IRCPermissions
  let tlsContext: NIOSSLContext?
  let clock = ContinuousClock()
  /// A transport keeps its connection; a probe (`awfulbot check`) registers, quits and reports.
  let mode: Mode

  enum Mode: Sendable {
    case transport
    case probe
  }

  /// The open connection, nil between connections.
  struct Link {
    let id: Int
    let writer: NIOAsyncChannelOutboundWriter<String>
    let channel: any Channel
    let openedAt: ContinuousClock.Instant
  }
  var link: Link?
  var linkCounter = 0
  /// The line being handled, while `receive` runs (see `linkDescription`).
  var lineInHand: String?
  var shuttingDown = false

  /// Registration: capabilities, SASL, nick, ISUPPORT (a new value for each connection).
  var registration: IRCRegistrationState

  // Connection state (see `IRCClient+State`): why this connection failed, the reason shown while reconnecting,
  // how many times the bot registered, and whether the transport has stopped for good.
  var connectionFailure: IRCConnectionFailure?
  var lastFailure: IRCConnectionFailure?
  var registrations = 0
  var stopped = false
  /// The state last told on the event stream (`publishConnectionState`).
  var publishedConnectionState: ConnectionState?
  /// Set by a probe once 001 arrived.
  var probeRegistration: IRCProbeRegistration?

  /// The channels of this connection (a new value for each connection).
  var membership = IRCChannelMembership()
  /// Who the private-message rooms reach (accounts to nicks, nicks' query rooms); `reset()` per connection keeps
  /// the nicks' rooms.
  var partners = IRCQueryPartners()
  /// Kept across connections: a kick is not undone by reconnecting.
  var kickedFrom: Set<String> = []
  /// Channels a reloaded config removed: parted, and not joined again by a send (kept across connections).
  var left: Set<String> = []

  // Keepalive.
  var lastReceived: ContinuousClock.Instant
  var keepaliveSentAt: ContinuousClock.Instant?
  var lastReclaim: ContinuousClock.Instant?
  var tokenCounter = 0
  var incomingCounter = 0

  // CTCP answers (see `IRCClient+CTCP`), limited across connections.
  var ctcpLimiter = IRCCTCPLimiter()
  /// Set once a request was ignored for the limit, so a flood logs one line; cleared by the next answer.
  var ctcpOverLimit = false

  // Sending.
  struct PendingSend {
    let id: Int
    /// A channel, a nick, or `account:<name>` until the writer resolves it to that account's nick.
    var target: String
    let message: OutgoingMessage
    let key: String
    let continuation: CheckedContinuation<DeliveryReceipt, any Error>
  }
  struct InFlight {
    var send: PendingSend
    var linkID: Int
    var lineCount = 0
    var failure: ChatSendError?
    /// Acknowledged by the server's echo of each line (echo-message) rather than by a PING.
    var byEcho = false
    var echoed = 0
    var allWritten = false
    /// When the last line was written, for a send whose echoes do not all come (see `settleMissingEchoes`).
    var allWrittenAt: ContinuousClock.Instant?
  }
  var queue: [PendingSend] = []
  var inFlight: [Int: InFlight] = [:]
  /// Sends written since the last acknowledging PING, and each PING's token with the sends it acknowledges.
  var unacknowledged: [Int] = []
  var ackTokens: [String: [Int]] = [:]
  var writerWaiter: CheckedContinuation<Void, Never>?
  var receipts: [String: DeliveryReceipt] = [:]
  var receiptOrder: [String] = []
  var nextSendID = 0

  init(
    configuration: IRCTransportConfiguration, logger: Logger, mode: Mode = .transport,
    emit: @escaping @Sendable (ChatEvent) -> Void
  ) throws {
    self.configuration = configuration
    self.sendWaitSeconds = configuration.sendWaitSeconds
    self.mode = mode
    self.logger = logger
    self.emit = emit
    self.bucket = IRCTokenBucket(
      burst: configuration.floodBurst, interval: .milliseconds(Int64(configuration.floodIntervalSeconds * 1000)))
    self.renderer = IRCRenderer(
      style: configuration.relayStyle, maxRelayLines: configuration.linesPerMessage,
      mircFormatting: configuration.mircFormatting, titleColour: configuration.titleColour)
    self.permissions = IRCPermissions(
      admins: configuration.admins, members: configuration.members, channelRoles: configuration.channelRoles)
    self.tlsContext = try IRCConnector.makeTLSContext(configuration)
    self.registration = IRCRegistrationState(nick: configuration.nick)
    self.lastReceived = ContinuousClock.now
  }

  // MARK: Connection lifecycle

  /// Connects, registers and serves one connection until it closes. Returns whether registration completed (the
  /// caller resets its backoff then).
  func runConnection() async throws -> Bool {
    let lineChannel: IRCConnector.LineChannel
    do {
      lineChannel = try await IRCConnector.connect(configuration, tlsContext: tlsContext)
    } catch {
      lastFailure = IRCConnectionFailure(error, host: configuration.host)
      publishConnectionState()
      throw error
    }
    let channel = lineChannel.channel
    try await lineChannel.executeThenClose { inbound, outbound in
      await self.open(writer: outbound, channel: channel)
      await withTaskGroup(of: Void.self) { group in
        group.addTask { await self.writerLoop() }
        group.addTask { await self.keepaliveLoop() }
        group.addTask { await self.quitOnGracefulShutdown() }
        do {
          for try await line in inbound {
            self.lineInHand = line
            await self.receive(line)
            self.lineInHand = nil
          }
        } catch {
          self.logConnectionError(error)
        }
        self.closed()
        group.cancelAll()
      }
    }
    return wasRegistered
  }

  /// Whether the last connection got as far as 001 (kept after `closed()` for the reconnect loop).
  var wasRegistered = false

  private func open(writer: NIOAsyncChannelOutboundWriter<String>, channel: any Channel) async {
    linkCounter += 1
    let now = clock.now
    link = Link(id: linkCounter, writer: writer, channel: channel, openedAt: now)
    registration = IRCRegistrationState(nick: configuration.nick)
    wasRegistered = false
    connectionFailure = nil
    membership = IRCChannelMembership()
    partners.reset()
    lastReceived = now
    keepaliveSentAt = nil
    lastReclaim = nil
    await bucket.reset()
    logger.info("connected", metadata: ["host": "\(configuration.host)", "port": "\(configuration.port)"])
    await startRegistration()
  }

  private func logConnectionError(_ error: any Error) {
    logger.warning("connection failed", metadata: ["error": "\(error)"])
    noteFailure(IRCConnectionFailure(error, host: configuration.host))
  }

  /// The connection is gone: what was being written may or may not have arrived, so it fails as retryable (the
  /// outbox sends it again); what was only queued waits for the next connection.
  private func closed() {
    let wasLink = link?.id
    link = nil
    lastFailure = connectionFailure ?? .closed
    registration.registered = false
    publishConnectionState()
    membership.channels = [:]
    membership.joining = []
    for (id, flight) in inFlight where flight.linkID == wasLink {
      inFlight[id] = nil
      flight.send.continuation.resume(
        throwing: ChatSendError.retryable(reason: "the IRC connection closed while sending", after: nil))
    }
    unacknowledged = []
    ackTokens = ackTokens.compactMapValues { ids in
      let open = ids.filter { inFlight[$0] != nil }
      return open.isEmpty ? nil : open
    }
    wakeWriter()
    logger.info("disconnected", metadata: ["host": "\(configuration.host)"])
  }

  /// Says goodbye when the service group shuts down: QUIT, then give the server a moment to close the link.
  private nonisolated func quitOnGracefulShutdown() async {
    do { try await gracefulShutdown() } catch { return }
    await quit()
  }

  func quit() async {
    shuttingDown = true
    failQueued(ChatSendError.retryable(reason: "the IRC transport is shutting down", after: nil))
    guard let link else { return }
    if let quit = try? IRCMessage(command: .quit, parameters: [IRCTextSanitizer.singleLine(configuration.quitMessage)])
    {
      await write(quit, charged: false)
    }
    logger.info("quit sent", metadata: ["host": "\(configuration.host)"])
    // The server answers QUIT with ERROR and closes; don't wait for ever if it does not.
    try? await Task.sleep(for: .seconds(2))
    link.channel.close(promise: nil)
  }

  func isShuttingDown() -> Bool { shuttingDown }

  /// Stops waiting senders; used when the transport stops.
  func failQueued(_ error: ChatSendError) {
    let waiting = queue
    queue = []
    for send in waiting { send.continuation.resume(throwing: error) }
  }

  // MARK: Writing

  /// Writes one line now. `charged` lines take a flood-control token without waiting (server-demanded replies,
  /// JOINs); registration lines are free because the server holds nothing against an unregistered client.
  func write(_ message: IRCMessage, charged: Bool = true) async {
    guard let link else { return }
    if charged && registration.registered { await bucket.consume() }
    do {
      try await link.writer.write(message.serialized)
    } catch {
      logger.debug("write failed", metadata: ["command": "\(message.command)", "error": "\(error)"])
    }
  }

  /// Builds and writes a line; a line that would not be valid IRC (a server-supplied value with a space or a
  /// leading colon in a middle position) is logged and dropped, never sent in pieces.
  func send(_ command: IRCCommand, _ parameters: [String], charged: Bool = true) async {
    do {
      await write(try IRCMessage(command: command, parameters: parameters), charged: charged)
    } catch {
      logger.warning("invalid line not sent", metadata: ["command": "\(command)", "error": "\(error)"])
    }
  }

  func nextToken(_ kind: String) -> String {
    tokenCounter += 1
    return "awfulbot-\(kind)-\(tokenCounter)"
  }

  // MARK: Keepalive

  /// Our own PING when the link has been quiet for `pingInterval`; no answer within `pingTimeout` means the link
  /// is dead (a silent NAT drop, a hung server), so it is closed and the reconnect loop takes over. Also reclaims
  /// the configured nick and bounds registration time.
  private func keepaliveLoop() async {
    let interval = Duration.milliseconds(Int64(configuration.pingIntervalSeconds * 1000))
    let timeout = Duration.milliseconds(Int64(configuration.pingTimeoutSeconds * 1000))
    let tick = max(min(interval, timeout) / 4, .milliseconds(100))
    while !Task.isCancelled {
      do { try await Task.sleep(for: min(tick, .seconds(1))) } catch { return }
      guard let link else { return }
      let now = clock.now
      if !registration.registered, now - link.openedAt > .seconds(configuration.registrationTimeoutSeconds) {
        logger.warning("registration timed out", metadata: ["host": "\(configuration.host)"])
        noteFailure(.registrationTimedOut(seconds: configuration.registrationTimeoutSeconds))
        link.channel.close(promise: nil)
        return
      }
      if let sent = keepaliveSentAt {
        if now - sent > timeout {
          logger.warning("no PONG, closing the connection", metadata: ["host": "\(configuration.host)"])
          noteFailure(.pingTimedOut(seconds: configuration.pingTimeoutSeconds))
          link.channel.close(promise: nil)
          return
        }
      } else if now - lastReceived > interval, registration.registered {
        keepaliveSentAt = now
        if let ping = try? IRCMessage(command: .ping, parameters: [nextToken("keepalive")]) {
          await write(ping)
        }
      }
      await settleMissingEchoes(now: now)
      await reclaimNickIfDue(now: now)
    }
  }
}
