import AsyncHTTPClient
import ChatBridge
import ForumModel
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Discord as a relay-only chat transport, through one incoming webhook per room: relays, announcements, alerts,
/// private-message alerts, digests and command answers go out as Discord markdown (`DiscordRenderer`), split into
/// messages of 2,000 characters at most (`DiscordMessageSplitter`), with `allowed_mentions: {"parse": []}` so no
/// message pings anyone. A send is `POST <webhook>?wait=true`, whose answer is the message: its id is the receipt
/// (`DiscordReceipt`, several ids for a message sent in parts), which edits follow (`PATCH <webhook>/messages/<id>`)
/// and removals take back (`DELETE`). Rate limits are kept as Discord's headers and 429s say (`DiscordRateLimits`).
///
/// A webhook only speaks: it reads nothing, so no command reaches the bot from Discord (that would take a gateway
/// bot, which this is not), and `events` carries only the connection's state.
///
/// Discord's webhooks take no idempotency key. A crash (or a timeout) between Discord taking a message and the
/// outbox recording it sends that one message again at the next try, as on IRC; the parts of a long message that
/// went out before a later part failed are remembered in the process (`DiscordPartialSends`), so a retry without a
/// crash sends only the rest.
package final class DiscordTransport: ChatTransport, Sendable {
  package let name: String
  package let capabilities: ChatCapabilities
  package let events: AsyncStream<ChatEvent>

  struct State: Sendable {
    var configuration: DiscordTransportConfiguration
    var renderer: DiscordRenderer
    var limits = DiscordRateLimits()
    var partials = DiscordPartialSends()
    var connection = ConnectionState.connecting
    /// Each wait a rate limit imposed, the latest last (at most 100), for `status` and tests.
    var rateLimitWaits: [Duration] = []
  }

  let state: Mutex<State>
  let queue: ChatEventQueue
  let client: DiscordWebhookClient
  let logger: Logger

  /// Checks that every room has its webhook (a configuration read without secrets has none); sending starts at once,
  /// there is no connection to open.
  package init(
    configuration: DiscordTransportConfiguration, httpClient: HTTPClient = .shared,
    logger: Logger = Logger(label: "awfulbot.discord")
  ) throws {
    let missing = configuration.rooms.filter { $0.value.webhook == nil }.keys.sorted()
    guard missing.isEmpty else {
      throw DiscordConfigurationError(
        missing.map { .init("rooms.\($0).webhook", "missing: give the channel's webhook URL") })
    }
    var logger = logger
    logger[metadataKey: "transport"] = "\(configuration.name)"
    self.logger = logger
    self.name = configuration.name
    self.capabilities = ChatCapabilities(edits: true, removals: true)
    let queue = ChatEventQueue()
    self.queue = queue
    self.events = queue.events
    self.state = Mutex(
      State(configuration: configuration, renderer: DiscordRenderer(linkPreviews: configuration.linkPreviews)))
    self.client = DiscordWebhookClient(
      httpClient: httpClient, timeout: Clamp.seconds(configuration.requestTimeoutSeconds, atMost: 300), logger: logger)
  }

  /// There is nothing to keep open: the transport is usable from the start and stays so until the shutdown.
  package func run() async throws {
    setConnection(.connected)
    try? await gracefulShutdown()
    setConnection(.stopped(reason: "shut down"))
    queue.finish()
  }

  /// The configured room names, as messages name them.
  package var rooms: [String] { state.withLock { $0.configuration.rooms.keys.sorted() } }

  /// The configuration the transport runs with now.
  package var configuration: DiscordTransportConfiguration { state.withLock { $0.configuration } }

  /// Each wait rate limits imposed so far (the latest 100), for tests and diagnostics.
  package func rateLimitWaits() -> [Duration] { state.withLock { $0.rateLimitWaits } }

  /// Takes a reloaded configuration (`DiscordTransportConfiguration.liveKeys`): rooms, names and limits apply from
  /// the next send. Returns one sentence per change; throws when the name changed or a webhook is missing.
  package func reconfigure(to next: DiscordTransportConfiguration) throws -> [String] {
    guard next.name == name else {
      throw DiscordConfigurationError([.init("name", "a running transport keeps its name; restart to rename it")])
    }
    let missing = next.rooms.filter { $0.value.webhook == nil }.keys.sorted()
    guard missing.isEmpty else {
      throw DiscordConfigurationError(
        missing.map { .init("rooms.\($0).webhook", "missing: give the channel's webhook URL") })
    }
    return state.withLock { state in
      let before = state.configuration
      state.configuration = next
      state.renderer = DiscordRenderer(linkPreviews: next.linkPreviews)
      var changes: [String] = []
      for room in Set(next.rooms.keys).subtracting(before.rooms.keys).sorted() {
        changes.append("Discord room \(room) added.")
      }
      for room in Set(before.rooms.keys).subtracting(next.rooms.keys).sorted() {
        changes.append("Discord room \(room) removed.")
      }
      for room in Set(before.rooms.keys).intersection(next.rooms.keys).sorted()
      where before.rooms[room] != next.rooms[room] {
        changes.append("Discord room \(room) changed.")
      }
      var settingsBefore = before
      var settingsNext = next
      settingsBefore.rooms = [:]
      settingsNext.rooms = [:]
      if settingsBefore != settingsNext { changes.append("Discord transport \(name)'s settings changed.") }
      return changes
    }
  }

  func setConnection(_ connection: ConnectionState) {
    let changed = state.withLock { state in
      guard state.connection != connection else { return false }
      state.connection = connection
      return true
    }
    if changed { queue.yield(.connection(connection)) }
  }
}
