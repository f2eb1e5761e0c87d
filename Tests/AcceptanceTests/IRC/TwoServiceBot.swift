import AwfulBotIRCTestKit
import AwfulBotTestKit
import FakeForum
import Foundation
import NIOCore
import NIOPosix
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `awfulbot run` as a child process with two chat services from one configuration file: IRC on the test network,
/// in a fresh channel an observer sits in, and a Matrix transport the test describes (one that cannot work); the
/// forum emulator on loopback, both rooms following one thread, and the metrics listener on a port the bot picks
/// (read from its log). For the tests of one chat service failing while the other goes on.
final class TwoServiceBot {
  static let thread = 3_600_001

  let environment: IRCTestEnvironment
  let channel: String
  let nick: String
  let observer: IRCTestClient
  let forum: FakeForumServer
  let forumAdmin: FakeForumAdminClient
  let process: BotProcess
  private let directory: URL
  private let configPath: String
  private let logPath: String
  private let variables: [String: String]
  /// The config as last written (`reload` changes it).
  private var configuration: [String: Any]

  private init(
    environment: IRCTestEnvironment, channel: String, nick: String, observer: IRCTestClient, forum: FakeForumServer,
    forumAdmin: FakeForumAdminClient, process: BotProcess, directory: URL, configPath: String, logPath: String,
    variables: [String: String], configuration: [String: Any]
  ) {
    self.configuration = configuration
    self.environment = environment
    self.channel = channel
    self.nick = nick
    self.observer = observer
    self.forum = forum
    self.forumAdmin = forumAdmin
    self.process = process
    self.directory = directory
    self.configPath = configPath
    self.logPath = logPath
    self.variables = variables
  }

  /// Starts the bot with `matrix` as its second transport (named `matrix`; `matrixRoom` in `rooms[]` follows the
  /// thread too) and `secrets` added to its environment, then waits until it joined the IRC channel.
  static func start(matrix: [String: Any], matrixRoom: String, secrets: [String: String]) async throws
    -> TwoServiceBot
  {
    var matrixTransport = matrix
    matrixTransport["type"] = "matrix"
    matrixTransport["name"] = "matrix"
    return try await launch(channel: IRCTestEnvironment.unique("#alone-"), secrets: secrets) { irc, channel in
      (
        [irc, matrixTransport],
        [
          ["transport": "irc", "room": channel, "subscriptions": ["thread:\(thread)"]],
          ["transport": "matrix", "room": matrixRoom, "subscriptions": ["thread:\(thread)"]],
        ]
      )
    }
  }

  /// Starts the bot with the IRC transport `irc` (nick, server and `channel` filled in; the test may add keys and
  /// channels) and whatever else `layout` returns as `transports` and `rooms`, then waits until it joined `channel`,
  /// where the observer sits.
  static func launch(
    channel: String, secrets: [String: String] = [:],
    layout: (_ irc: [String: Any], _ channel: String) -> (transports: [[String: Any]], rooms: [[String: Any]])
  ) async throws -> TwoServiceBot {
    let environment = try IRCTestEnvironment.required
    let binary = try #require(
      BotProcess.binary, "the awfulbot executable next to the test bundle (swift build --build-tests builds it)")
    let nick = IRCTestEnvironment.unique("bot")
    let observer = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("o"), environment: environment)
    try await observer.join(channel)

    let forum = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo))
    let root = try await forum.start()
    let directory = TestScratch.path("awfulbot-alone")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let irc: [String: Any] = [
      "type": "irc", "name": "irc", "server": "\(environment.host):\(environment.port)", "tls": false,
      "nick": nick, "channels": [channel], "reconnectDelaySeconds": 0.5,
    ]
    let (transports, rooms) = layout(irc, channel)
    let configuration: [String: Any] = [
      "forum": [
        "baseURL": root.absoluteString + "/", "username": FakeForumSeed.botUsername, "requestSpacingSeconds": 0,
        "announcementsForumID": "273",
      ],
      "dataDirectory": directory.appendingPathComponent("data").path,
      "polling": ["bookmarksSeconds": 5, "announcementsSeconds": 3600, "forumsSeconds": 3600],
      "transports": transports,
      "rooms": rooms,
      "logging": ["level": "info"],
      "metrics": ["listen": "127.0.0.1:0"],
    ]
    let configPath = directory.appendingPathComponent("awfulbot.json").path
    try JSONSerialization.data(withJSONObject: configuration).write(to: URL(fileURLWithPath: configPath))
    let logPath = directory.appendingPathComponent("run.log").path
    let variables =
      ["PATH": "/usr/bin:/bin", "HOME": directory.path, "AWFULBOT_FORUM_PASSWORD": FakeForumSeed.botPassword]
      .merging(secrets) { $1 }
    let process = try BotProcess.spawn(
      binary, ["run", "--config", configPath], environment: variables, output: logPath)
    let bot = TwoServiceBot(
      environment: environment, channel: channel, nick: nick, observer: observer, forum: forum,
      forumAdmin: FakeForumAdminClient(baseURL: root), process: process, directory: directory,
      configPath: configPath, logPath: logPath, variables: variables, configuration: configuration)
    do {
      // The rooms are seeded before any transport starts: once the bot is in the channel, the thread's cursor is at
      // its last post and only new posts are relayed.
      try await observer.waitFor("the bot joins", timeout: .seconds(30)) { $0.command == "JOIN" && $0.nick == nick }
    } catch {
      Issue.record("the bot did not join; its log ends:\n\(bot.logTail())")
      await bot.stop()
      throw error
    }
    return bot
  }

  // MARK: Reloading

  /// Rewrites the config file with `change` applied to the one written last, then sends SIGHUP (what
  /// `systemctl reload` does).
  func reload(_ change: (inout [String: Any]) -> Void) throws {
    change(&configuration)
    try JSONSerialization.data(withJSONObject: configuration).write(to: URL(fileURLWithPath: configPath))
    process.kill(SIGHUP)
  }

  /// What `awfulbot status --config … --json` says, whole.
  func status() async throws -> [String: Any] {
    let output = directory.appendingPathComponent("status-\(UUID()).json").path
    let status = try BotProcess.spawn(
      try #require(BotProcess.binary), ["status", "--config", configPath, "--json"], environment: variables,
      output: output)
    guard let ending = await status.reap(timeout: .seconds(20)) else {
      status.killAndReap()
      throw TestClientError.timedOut("awfulbot status", nick: "-", seen: [])
    }
    // Exit status 1 means "needs attention", which a transport that is not connected is.
    #expect(ending == .exited(0) || ending == .exited(1), "awfulbot status \(ending)")
    // Standard error shares the file: a line about a config that does not validate may come before the JSON.
    let text = try String(contentsOfFile: output, encoding: .utf8)
    let start =
      text.hasPrefix("{")
      ? text.startIndex : (text.range(of: "\n{").map { text.index(after: $0.lowerBound) } ?? text.endIndex)
    return try #require(try JSONSerialization.jsonObject(with: Data(text[start...].utf8)) as? [String: Any], "\(text)")
  }

  /// Kills the bot if it still runs, and removes everything the test made.
  func stop() async {
    process.killAndReap()
    await forum.stop()
    await observer.quit()
    try? FileManager.default.removeItem(at: directory)
  }

  // MARK: Relaying

  /// Posts `text` in the thread through the emulator's admin API and waits until the observer reads it from the bot.
  func postAndReadOnIRC(_ text: String) async throws -> ReceivedLine {
    let mark = await observer.mark()
    try await forumAdmin.addPost(thread: Self.thread, author: "Zoë Québec", body: text)
    let nick = self.nick
    do {
      return try await observer.waitFor("the relay of “\(text)”", from: mark, timeout: .seconds(30)) {
        $0.nick == nick && $0.text.contains(text)
      }
    } catch {
      Issue.record("no relay on IRC; the bot's log ends:\n\(logTail())")
      throw error
    }
  }

  // MARK: What operators see

  /// The bot's log so far (standard error and output of `run`).
  var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

  func logTail(_ count: Int = 20) -> String {
    log.split(separator: "\n").suffix(count).joined(separator: "\n")
  }

  /// The log lines containing every one of `parts`.
  func logLines(containing parts: String...) -> [String] {
    log.split(separator: "\n").map(String.init).filter { line in parts.allSatisfy { line.contains($0) } }
  }

  /// What `awfulbot status --config … --json` says about the transport `name` now (the heartbeat's record).
  func statusOfTransport(_ name: String) async throws -> [String: Any]? {
    let transports = try await status()["transports"] as? [[String: Any]] ?? []
    return transports.first { $0["name"] as? String == name }
  }

  /// The metrics listener's address, from the log line it writes once it listens.
  func metricsRoot() async throws -> String {
    let root = try await readUntil(every: .milliseconds(100)) { () -> String? in
      guard let line = logLines(containing: "metrics listener running").first,
        let range = line.range(of: #"port=\d+"#, options: .regularExpression)
      else { return nil }
      return "http://127.0.0.1:\(line[range].dropFirst("port=".count))"
    } until: {
      $0 != nil
    }
    guard let root else {
      throw TestClientError.timedOut("the metrics listener's log line", nick: "-", seen: [logTail()])
    }
    return root
  }

  /// A plain GET on the metrics listener: status and body.
  func get(_ path: String) async throws -> (status: Int, body: String) {
    var request = URLRequest(url: URL(string: try await metricsRoot() + path)!)
    request.timeoutInterval = 10
    let (data, response) = try await URLSession.shared.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
  }

  // MARK: Ending

  /// Sends SIGTERM and waits up to 30 s for the process to end: how it ended and how long that took.
  func terminate() async -> (ending: BotProcess.Ending?, took: Duration) {
    let asked = ContinuousClock.now
    process.kill(SIGTERM)
    let ending = await process.reap(timeout: .seconds(30))
    return (ending, ContinuousClock.now - asked)
  }
}
