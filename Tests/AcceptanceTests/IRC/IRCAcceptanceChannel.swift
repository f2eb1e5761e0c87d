import AwfulBotApp
import AwfulBotAppTestKit
import AwfulBotIRCTestKit
import AwfulBotTestKit
import ChatBridge
import FakeForum
import Foundation
import Logging
import Testing

@testable import IRCTransport

/// A channel on the test network with three people in it and the whole bot (`BotApplication`: poller, outbox,
/// dispatcher, command router, the IRC transport) against the forum emulator (demo seed): what ordinary IRC users
/// type and read.
///
/// - `op` joined the new channel first, so the server made them its operator (an admin for the bot by default);
/// - `plain` is nobody special (a viewer);
/// - `admin` logged in to services with SASL as the tester account, which the transport's `admins` list names; no
///   channel status.
///
/// The room follows the bot account's bookmarks and the announcements, as a config's `rooms[]` would set it up. The
/// poller's own schedule is an hour, so a test decides when a poll happens (`poll()`): the posts made before it are
/// relayed by that one poll.
final class IRCAcceptanceChannel: Sendable {
  let environment: IRCTestEnvironment
  let channel: String
  let botNick: String
  let op: IRCTestClient
  let plain: IRCTestClient
  let admin: IRCTestClient
  let forum: FakeForumServer
  let baseURL: URL
  let application: BotApplication
  let transport: IRCTransport
  private let task: Task<Void, any Error>
  private let directory: URL

  /// What a transcript shows instead of the emulator's address on a random port.
  static let forumHost = "https://forum.example"

  private init(
    environment: IRCTestEnvironment, channel: String, botNick: String, op: IRCTestClient, plain: IRCTestClient,
    admin: IRCTestClient, forum: FakeForumServer, baseURL: URL, application: BotApplication, transport: IRCTransport,
    task: Task<Void, any Error>, directory: URL
  ) {
    self.environment = environment
    self.channel = channel
    self.botNick = botNick
    self.op = op
    self.plain = plain
    self.admin = admin
    self.forum = forum
    self.baseURL = baseURL
    self.application = application
    self.transport = transport
    self.task = task
    self.directory = directory
  }

  /// The emulator's address without the trailing slash, as links start.
  var forumRoot: String {
    let base = baseURL.absoluteString
    return base.hasSuffix("/") ? String(base.dropLast()) : base
  }

  /// The emulator's admin API: how posts appear on the forum.
  var forumAdmin: FakeForumAdminClient { FakeForumAdminClient(baseURL: baseURL) }

  /// - Parameter editNotices: the channel's `rooms[]` entry asks for a line when a relayed post is edited on the forum.
  static func start(relayStyle: IRCRenderer.RelayStyle = .compact, editNotices: Bool = false) async throws
    -> IRCAcceptanceChannel
  {
    let environment = try IRCTestEnvironment.required
    let channel = IRCTestEnvironment.unique("#accept-")
    // The first to join a new channel is its operator.
    let op = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("op"), environment: environment)
    try await op.join(channel)
    let plain = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("pl"), environment: environment)
    try await plain.join(channel)
    let admin = try await IRCTestClient.connect(
      nick: IRCTestEnvironment.unique("ad"), environment: environment,
      sasl: (environment.testerAccount, environment.testerPassword))
    try await admin.join(channel)

    let forum = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo, pageNav: .new))
    let baseURL = try await forum.start()
    let directory = TestScratch.path("awfulbot-irc-accept")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)

    let botNick = IRCTestEnvironment.unique("bot")
    var ircConfiguration = botConfiguration(environment, nick: botNick, channels: [channel])
    ircConfiguration.admins = [environment.testerAccount]
    ircConfiguration.relayStyle = relayStyle
    let transport = try IRCTransport(configuration: ircConfiguration, logger: Logger.quiet())
    let configuration = AppConfiguration(
      forum: .emulator(baseURL),
      dataDirectory: directory.path,
      polling: .init(bookmarksSeconds: 3600, announcementsSeconds: 3600, forumsSeconds: 3600),
      // The scripts say dozens of commands in seconds: no command budget here (it has suites of its own).
      commands: .init(
        prefix: "!", botName: "awfulbot", userCommandsPerMinute: 0, roomCommandsPerMinute: 0, forumRequestsPerMinute: 0),
      transports: [TransportSettings(IRCPlugin.self, name: "irc", configuration: ircConfiguration)],
      rooms: [
        .init(
          transport: "irc", room: IRCCaseMapping.fold(channel), subscriptions: [.bookmarks(stars: []), .announcements],
          editNotices: editNotices ? true : nil)
      ])
    let application = try BotApplication(
      configuration: configuration, transports: [transport], logger: Logger.quiet(),
      progress: ProgressReporter(enabled: false))
    try await application.seedRooms()
    let task = Task { try await application.run(signals: []) }
    let started = IRCAcceptanceChannel(
      environment: environment, channel: channel, botNick: botNick, op: op, plain: plain, admin: admin, forum: forum,
      baseURL: baseURL, application: application, transport: transport, task: task, directory: directory)
    do {
      try await op.waitForJoin(of: botNick)
      // NAMES (right after the JOIN) tells the bot who the operator is.
      try await waitUntil(timeout: .seconds(10)) {
        await transport.client.channelModes(channel, nick: op.nick).contains("o")
      }
      // The poller's first round records what exists (nothing already posted is relayed).
      try await waitUntil(timeout: .seconds(20)) {
        let sources = (try? await application.engine.statusReports.health().sources) ?? []
        return sources.contains { $0.source == "bookmarks" && $0.lastSuccess != nil }
          && sources.contains { $0.source == "announcements" && $0.lastSuccess != nil }
      }
    } catch {
      await started.stop()
      throw error
    }
    return started
  }

  /// Runs `body` with a started channel and always stops it.
  static func with(
    relayStyle: IRCRenderer.RelayStyle = .compact, editNotices: Bool = false,
    _ body: (IRCAcceptanceChannel) async throws -> Void
  ) async throws {
    try await using(
      start(relayStyle: relayStyle, editNotices: editNotices), tearDown: { await $0.stop() }, body)
  }

  func stop() async {
    task.cancel()
    _ = try? await task.value
    await forum.stop()
    for client in [op, plain, admin] { await client.quit() }
    try? FileManager.default.removeItem(at: directory)
  }

  // MARK: Talking

  /// `client` says `text` in the channel (`BOT` in it stands for the bot's nick, `FORUM` for the emulator's
  /// address); returns the transcript the speaker reads: their own line, then the bot's answer, once the bot said
  /// something and then nothing more for `quiet`.
  /// With `answered` false, the bot is given two seconds to say nothing.
  func say(_ text: String, as client: IRCTestClient, answered: Bool = true) async throws -> [String] {
    let line = text.replacingOccurrences(of: "BOT", with: botNick).replacingOccurrences(of: "FORUM", with: forumRoot)
    let mark = await client.mark()
    try await client.send("PRIVMSG \(channel) :\(line)")
    let answer = try await botLines(
      seenBy: client, from: mark, atLeast: answered ? 1 : 0, quiet: answered ? .milliseconds(700) : .seconds(2),
      what: "the answer to \(line)")
    return ["<\(name(of: client))> \(readable(line))"] + answer.map(shown)
  }

  /// `client` sends the bot a private message; the transcript shows it as `-> *awfulbot* text`.
  func whisper(_ text: String, as client: IRCTestClient) async throws -> [String] {
    let mark = await client.mark()
    try await client.send("PRIVMSG \(botNick) :\(text)")
    let answer = try await botLines(seenBy: client, from: mark, what: "the private answer to \(text)")
    return ["<\(name(of: client))> (private to awfulbot) \(text)"] + answer.map(shown)
  }

  /// One poll of the bookmarks, now, and the relays `reader` then reads (at least `count` of them).
  func pollAndRead(_ count: Int, reader: IRCTestClient, quiet: Duration = .seconds(1)) async throws -> [ReceivedLine] {
    let mark = await reader.mark()
    await poll()
    return try await botLines(seenBy: reader, from: mark, atLeast: count, quiet: quiet, what: "\(count) relays")
  }

  /// Returns once everything the bot queued was sent and has reached `reader`, so a test can check what was not
  /// said.
  func settled(for reader: IRCTestClient) async throws {
    try await application.engine.waitUntilNothingPending()
    try await reader.roundTrip()
  }

  /// One poll of the bookmarks, now.
  func poll() async {
    let report = await application.engine.polling.poll(.bookmarks)
    #expect(report.succeeded, "the poll failed: \(report.error ?? "")")
  }

  /// The bot's lines (PRIVMSG or NOTICE, in the channel or to the reader) that `client` received from `mark` on,
  /// once at least `count` came and then nothing more for `quiet`.
  func botLines(
    seenBy client: IRCTestClient, from mark: Int, atLeast count: Int = 1, quiet: Duration = .milliseconds(700),
    timeout: Duration = .seconds(30), what: String
  ) async throws -> [ReceivedLine] {
    let clock = ContinuousClock()
    var seen = -1
    var lastChange = clock.now
    let isSettled = { (lines: [ReceivedLine]) in lines.count >= count && clock.now - lastChange >= quiet }
    let lines = try await readUntil(every: .milliseconds(25), timeout: timeout) {
      let lines = await client.lines[mark...].filter(isFromBot)
      if lines.count != seen {
        seen = lines.count
        lastChange = clock.now
      }
      return lines
    } until: {
      isSettled($0)
    }
    guard isSettled(lines) else {
      // What the transport is doing says why nothing came: a send waiting for its acknowledgement, or nothing.
      throw TestClientError.timedOut(
        "\(what) (\(lines.count) of \(count) lines; the bot's sending: \(await transport.client.sendingState()))",
        nick: client.nick, seen: await client.lines.suffix(8).map(\.raw))
    }
    return lines
  }

  var isFromBot: @Sendable (ReceivedLine) -> Bool {
    let nick = botNick
    return { $0.nick == nick && ($0.command == "PRIVMSG" || $0.command == "NOTICE") }
  }

  // MARK: Reading

  /// The name a transcript gives the person behind `client`.
  func name(of client: IRCTestClient) -> String {
    client === op ? "op" : client === admin ? "admin" : "plain"
  }

  /// `text` as a transcript shows it: the forum at `forumHost`, the nicks by role, the channel as `#channel`, and
  /// the time of something that happened during the test (not a seeded date) as `‹now›`.
  func readable(_ text: String) -> String {
    let replaced = text.replacingOccurrences(of: forumRoot, with: Self.forumHost)
      .replacingOccurrences(of: botNick, with: "awfulbot")
      .replacingOccurrences(of: op.nick, with: "op").replacingOccurrences(of: plain.nick, with: "plain")
      .replacingOccurrences(of: admin.nick, with: "admin")
      .replacingOccurrences(of: channel, with: "#channel")
    return Self.recentTimes(in: replaced)
  }

  /// "2026-11-25 09:04 UTC" within a day of now becomes "‹now›"; the forum's seeded dates (2024) stay.
  static func recentTimes(in text: String) -> String {
    guard let pattern = try? NSRegularExpression(pattern: #"\d{4}-\d\d-\d\d \d\d:\d\d UTC"#) else { return text }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
    var result = text
    for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
      guard let range = Range(match.range, in: result), let date = formatter.date(from: String(result[range])),
        abs(date.timeIntervalSinceNow) < 86_400
      else { continue }
      result.replaceSubrange(range, with: "‹now›")
    }
    return result
  }

  /// A line from the bot as an IRC client shows it: `<awfulbot> text` (PRIVMSG) or `-awfulbot- text` (NOTICE);
  /// `(private)` when it went to the reader alone.
  func shown(_ line: ReceivedLine) -> String {
    let isChannel = line.parameters.first?.lowercased() == channel.lowercased()
    let text = readable(line.text)
    let privately = isChannel ? "" : "(private) "
    return line.command == "NOTICE" ? "-awfulbot- \(privately)\(text)" : "<awfulbot> \(privately)\(text)"
  }
}

extension IRCClient {
  /// The sends under way, for a timeout's message.
  func sendingState() -> String {
    let flights = inFlight.values.map {
      "\($0.lineCount) lines written, \($0.echoed) echoed, all written \($0.allWritten)"
    }
    return "\(queue.count) queued, in flight: \(flights)"
  }
}

/// Compares a transcript with the expected one in one expectation; on a difference, the message names the first
/// line that differs and shows the whole transcript as the bot said it, ready to read.
func expectTranscript(
  _ actual: [String], _ expected: [String], _ what: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  var firstDifference = ""
  if let index = zip(actual, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
    firstDifference = "line \(index + 1):\n  expected: \(expected[index])\n  actual:   \(actual[index])\n"
  } else if actual.count != expected.count {
    firstDifference = "\(actual.count) lines, expected \(expected.count)\n"
  }
  #expect(
    actual == expected,
    "\(what): \(firstDifference)the whole transcript:\n\(actual.joined(separator: "\n"))",
    sourceLocation: sourceLocation)
}
