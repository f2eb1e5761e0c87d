import ChatBridge
import Foundation
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle

/// One IRC transport's client: the current connection (`IRCConnection`, made new for each one) and what outlives
/// connections (queued sends, delivered receipts, channel wishes, the connection history). One actor so the inbound
/// loop, the writer, the keepalive and callers of `send` never race on it. Split over several files: registration,
/// inbound handling, sending.
actor IRCClient {
  /// The settings in force; `reconfigure` replaces the ones that can change on a live connection.
  var configuration: IRCTransportConfiguration
  /// How long a send waits for a connection and a join (fixed for the life of the client, read outside the actor).
  let sendWaitSeconds: Double
  let logger: Logger
  let emit: @Sendable (ChatEvent) -> Void
  let renderer: IRCRenderer
  /// How far messages of several lines got, for a resend after a stop (`IRCLineProgress`).
  let lineProgress: IRCLineProgress
  /// Who holds which role; replaced by `reconfigure`.
  var permissions: IRCPermissions
  let tlsContext: NIOSSLContext?
  let clock = ContinuousClock()
  /// A transport keeps its connection; a probe (`awfulbot check`) registers, quits and reports.
  let mode: Mode

  enum Mode: Sendable {
    case transport
    case probe
  }

  /// The current connection, or the closed one between connections; replaced whole by `open` and `closed`.
  var connection: IRCConnection

  // What outlives a connection, each for its own reason.

  /// Registrations, the last failure, the state last told, stopped: they describe the transport, not one socket.
  var history = IRCConnectionHistory()
  /// Set by `quit` (and a probe's ending): the client is leaving for good, so no send is taken any more and the
  /// server's ERROR is a goodbye.
  var shuttingDown = false
  /// Set by a probe once 001 arrived: its report, read after the connection closed.
  var probeRegistration: IRCProbeRegistration?
  /// Who the private-message rooms reach; `forNewConnection()` for each connection keeps only the nicks' rooms,
  /// which the engine holds until their nick is seen to go.
  var partners = IRCQueryPartners()
  /// Channels kicked from and channels a reload removed: a reconnect undoes neither.
  var wishes = IRCChannelWishes()
  /// Limits CTCP answers across connections, so reconnecting does not refill the buckets of a flood.
  var ctcpLimiter = IRCCTCPLimiter()
  /// Numbers the messages without a server `msgid`; across connections, so the engine never sees an id twice.
  var incomingCounter = 0

  // Sending (see `IRCClient+Sending`): sends wait in the queue across connections (the next one writes them);
  // what a connection has written is its `ledger`.
  struct PendingSend {
    let id: Int
    /// A channel, a nick, or `account:<name>` until the writer resolves it to that account's nick.
    var target: String
    let message: OutgoingMessage
    let key: String
    let continuation: CheckedContinuation<DeliveryReceipt, any Error>
  }
  var queue: [PendingSend] = []
  /// The writer loop waiting for a send to become ready (woken by `wakeWriter`).
  var writerWaiter: CheckedContinuation<Void, Never>?
  /// Delivered sends by key, answered again for a retry instead of sending twice: the outbox's view, across
  /// connections.
  var receipts = IRCReceiptMemory()
  /// Numbers sends across connections (a receipt names its send's number).
  var nextSendID = 0

  init(
    configuration: IRCTransportConfiguration, logger: Logger, mode: Mode = .transport,
    stateStore: (any TransportStateStore)? = nil, emit: @escaping @Sendable (ChatEvent) -> Void
  ) throws {
    self.lineProgress = IRCLineProgress(store: stateStore, logger: logger)
    self.configuration = configuration
    self.sendWaitSeconds = configuration.sendWaitSeconds
    self.mode = mode
    self.logger = logger
    self.emit = emit
    self.renderer = IRCRenderer(
      style: configuration.relayStyle, maxRelayLines: configuration.linesPerMessage,
      mircFormatting: configuration.mircFormatting, titleColour: configuration.titleColour)
    self.permissions = IRCPermissions(
      admins: configuration.admins, members: configuration.members, channelRoles: configuration.channelRoles)
    self.tlsContext = try IRCConnector.makeTLSContext(configuration)
    self.connection = IRCConnection(
      id: 0, link: nil, nick: configuration.nick, openedAt: ContinuousClock.now,
      bucket: Self.makeBucket(configuration))
  }

  /// Flood control as configured, full.
  static func makeBucket(_ configuration: IRCTransportConfiguration) -> IRCTokenBucket {
    IRCTokenBucket(
      burst: configuration.floodBurst, interval: .milliseconds(Int64(configuration.floodIntervalSeconds * 1000)))
  }

  /// The current connection's flood bucket (a new one for each connection).
  var bucket: IRCTokenBucket { connection.bucket }

  // MARK: Connection lifecycle

  /// Connects, registers and serves one connection until it closes. Returns whether registration completed (the
  /// caller resets its backoff then).
  func runConnection() async throws -> Bool {
    let lineChannel: IRCConnector.LineChannel
    do {
      lineChannel = try await IRCConnector.connect(configuration, tlsContext: tlsContext)
    } catch {
      history.failed(IRCConnectionFailure(error, host: configuration.host))
      publishConnectionState()
      throw error
    }
    let channel = lineChannel.channel
    return try await lineChannel.executeThenClose { inbound, outbound in
      await self.open(writer: outbound, channel: channel)
      return await withTaskGroup(of: Void.self) { group in
        group.addTask { await self.writerLoop() }
        group.addTask { await self.keepaliveLoop() }
        group.addTask { await self.quitOnGracefulShutdown() }
        do {
          for try await line in inbound {
            self.connection.lineInHand = line
            await self.receive(line)
            self.connection.lineInHand = nil
          }
        } catch {
          self.logConnectionError(error)
        }
        let registered = self.closed()
        group.cancelAll()
        return registered
      }
    }
  }

  /// A new connection: a new `IRCConnection` (nothing of the last one's registration, channels, timers, sends or
  /// flood budget carries over) and the partners seen on it forgotten.
  private func open(writer: NIOAsyncChannelOutboundWriter<String>, channel: any Channel) async {
    connection = connection.reopened(
      on: IRCConnection.Link(writer: writer, channel: channel), nick: configuration.nick, at: clock.now,
      bucket: Self.makeBucket(configuration))
    partners = partners.forNewConnection()
    logger.info("connected", metadata: ["host": "\(configuration.host)", "port": "\(configuration.port)"])
    await startRegistration()
  }

  private func logConnectionError(_ error: any Error) {
    logger.warning("connection failed", metadata: ["error": "\(error)"])
    noteFailure(IRCConnectionFailure(error, host: configuration.host))
  }

  /// The connection is gone: it is replaced by a closed one (not registered, in no channel, nothing in flight).
  /// What it was writing may or may not have arrived, so those sends fail as retryable (the outbox sends them
  /// again); what was only queued waits for the next connection. Returns whether it had registered.
  private func closed() -> Bool {
    let ended = connection
    connection = ended.closed(nick: configuration.nick, at: clock.now)
    history.failed(ended.failure)
    publishConnectionState()
    for waiter in ended.ledger.unsettled {
      waiter.resume(throwing: ChatSendError.retryable(reason: "the IRC connection closed while sending", after: nil))
    }
    wakeWriter()
    logger.info("disconnected", metadata: ["host": "\(configuration.host)"])
    return ended.registration.registered
  }

  /// Says goodbye when the service group shuts down: QUIT, then give the server a moment to close the link.
  private nonisolated func quitOnGracefulShutdown() async {
    do { try await gracefulShutdown() } catch { return }
    await quit()
  }

  func quit() async {
    shuttingDown = true
    failQueued(ChatSendError.retryable(reason: "the IRC transport is shutting down", after: nil))
    guard let link = connection.link else { return }
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
    guard let link = connection.link else { return }
    if charged && connection.registration.registered { await connection.bucket.consume() }
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

  // MARK: Keepalive

  /// Our own PING when the link has been quiet for `pingInterval`; no answer within `pingTimeout` means the link
  /// is dead (a silent NAT drop, a hung server), so it is closed and the reconnect loop takes over. Also reclaims
  /// the configured nick and bounds registration time. The timers are the connection's `keepalive`.
  private func keepaliveLoop() async {
    let interval = Duration.milliseconds(Int64(configuration.pingIntervalSeconds * 1000))
    let timeout = Duration.milliseconds(Int64(configuration.pingTimeoutSeconds * 1000))
    let tick = max(min(interval, timeout) / 4, .milliseconds(100))
    let connectionID = connection.id
    while !Task.isCancelled {
      do { try await Task.sleep(for: min(tick, .seconds(1))) } catch { return }
      guard connection.isOpen(connectionID), let link = connection.link else { return }
      let now = clock.now
      let verdict = connection.keepalive.check(
        now: now, registered: connection.registration.registered, interval: interval, timeout: timeout,
        registrationTimeout: .seconds(configuration.registrationTimeoutSeconds))
      switch verdict {
      case .registrationTimedOut:
        logger.warning("registration timed out", metadata: ["host": "\(configuration.host)"])
        noteFailure(.registrationTimedOut(seconds: configuration.registrationTimeoutSeconds))
        link.channel.close(promise: nil)
        return
      case .pingTimedOut:
        logger.warning("no PONG, closing the connection", metadata: ["host": "\(configuration.host)"])
        noteFailure(.pingTimedOut(seconds: configuration.pingTimeoutSeconds))
        link.channel.close(promise: nil)
        return
      case .ping:
        if let ping = try? IRCMessage(command: .ping, parameters: [connection.nextToken("keepalive")]) {
          await write(ping)
        }
      case .quiet:
        break
      }
      await settleMissingEchoes(now: now)
      await reclaimNickIfDue(now: now)
    }
  }
}
