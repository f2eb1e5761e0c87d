import ChatBridge
import ForumModel
import Foundation
import Logging
import ServiceLifecycle

/// IRC as a chat transport: rooms are channels (case-folded, `#awful`) and nicks (private queries). Running it
/// connects, registers (SASL when configured), joins the configured channels and keeps the connection, reconnecting
/// with exponential backoff and jitter; a SASL login that fails before the first registration stops it with an
/// error. Relayed posts go out as NOTICE (configurable), command replies as PRIVMSG, rendered by `IRCRenderer` at
/// send time to fit IRC's 512-byte lines and paced by a shared token bucket. CTCP VERSION, PING, TIME and
/// CLIENTINFO are answered, rate-limited.
package final class IRCTransport: ChatTransport, Sendable {
  package let name: String
  package let capabilities: ChatCapabilities
  package let events: AsyncStream<ChatEvent>
  package let configuration: IRCTransportConfiguration

  private let queue: ChatEventQueue
  let client: IRCClient
  private let logger: Logger

  /// Checks the configuration and prepares TLS; connecting happens in `run()`.
  /// `stateStore` keeps how far a message of several lines got, so a resend after a crash goes on after the lines the
  /// server had (`IRCLineProgress`); without one such a message is repeated whole.
  package init(
    configuration: IRCTransportConfiguration, stateStore: (any TransportStateStore)? = nil,
    logger: Logger = Logger(label: "awfulbot.irc")
  ) throws {
    try configuration.validate()
    var logger = logger
    logger[metadataKey: "transport"] = "\(configuration.name)"
    self.logger = logger
    self.configuration = configuration
    self.name = configuration.name
    self.capabilities = ChatCapabilities(edits: false, threads: false)
    let queue = ChatEventQueue()
    self.events = queue.events
    self.queue = queue
    let dropLogger = logger
    self.client = try IRCClient(configuration: configuration, logger: logger, stateStore: stateStore) { event in
      if let total = queue.offer(event).droppedToReport {
        dropLogger.warning("chat events dropped: too many waiting", metadata: ["dropped": "\(total)"])
      }
    }
  }

  /// Throws `IRCTransportError` when SASL fails before the first registration (the bot then exits 78).
  package func run() async throws {
    var attempt = 0
    var fatal: IRCTransportError?
    while !Task.isCancelled && !Task.isShuttingDownGracefully {
      do {
        if try await client.runConnection() { attempt = 0 }
      } catch {
        logger.warning("could not connect", metadata: ["error": "\(error)"])
      }
      if let error = await client.startupSASLError() {
        fatal = error
        break
      }
      if await client.isShuttingDown() || Task.isCancelled || Task.isShuttingDownGracefully { break }
      attempt += 1
      let delay = reconnectDelay(attempt: attempt)
      logger.info("reconnecting", metadata: ["attempt": "\(attempt)", "delay": "\(delay)"])
      do {
        try await cancelWhenGracefulShutdown { try await Task.sleep(for: delay) }
      } catch {
        break
      }
    }
    await client.failQueued(ChatSendError.retryable(reason: "the IRC transport stopped", after: nil))
    await client.markStopped()
    queue.yield(.connection(.stopped(reason: fatal?.description ?? "shut down")))
    queue.finish()
    if let fatal {
      logger.error("SASL login impossible, the transport stops", metadata: ["error": "\(fatal)"])
      throw fatal
    }
  }

  /// Channels are keyed case-folded (`#Goons` and `#goons` are one room), as messages name them.
  package func resolveRoom(_ reference: String) async throws -> String {
    if IRCChannelName.isChannel(reference) { return IRCCaseMapping.fold(reference) }
    if let account = IRCQueryPartners.account(inRoom: reference) { return IRCQueryPartners.accountPrefix + account }
    return reference
  }

  /// Whether the bot is registered, and if not why (what its `.connection` events tell; for tests and diagnostics).
  package func connectionState() async -> IRCConnectionState {
    await client.connectionState()
  }

  /// The open connection as the client sees it (see `IRCClient.linkDescription`), for diagnostics.
  package func linkDescription() async -> String { await client.linkDescription() }

  /// How many connections got as far as registering; more than one means the transport reconnected.
  package func registrationCount() async -> Int {
    await client.registrationCount()
  }

  package func send(_ message: OutgoingMessage, to room: String, idempotencyKey: String) async throws
    -> DeliveryReceipt
  {
    try await client.send(message, to: room, key: idempotencyKey)
  }

  /// The configuration keys `reconfigure` applies to a running transport; a change to any other needs a restart.
  package static let liveKeys: Set<String> = Set(
    [IRCTransportConfiguration.CodingKeys.channels, .rejoinOnKick, .admins, .members, .channelRoles].map(\.stringValue))

  /// Applies the live keys of a reloaded configuration (see `liveKeys`): joins added channels and parts removed
  /// ones without touching the connection or the other channels. Returns one sentence per change.
  package func reconfigure(to next: IRCTransportConfiguration) async throws -> [String] {
    try next.validate()
    return await client.reconfigure(to: next)
  }

  /// `base · 2^(attempt-1)`, capped, stretched or shrunk by up to the jitter fraction.
  func reconnectDelay(attempt: Int) -> Duration {
    let base = configuration.reconnectDelaySeconds * Double(1 << min(max(attempt - 1, 0), 20))
    let capped = min(base, configuration.maximumReconnectDelaySeconds)
    let jitter = max(configuration.reconnectJitter, 0)
    let factor = jitter > 0 ? 1 + Double.random(in: -jitter...jitter) : 1
    return Clamp.seconds(max(capped * factor, 0.05), atMost: .infinity)  // no jitter in the config can overflow it
  }
}
