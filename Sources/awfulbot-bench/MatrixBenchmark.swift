import ArgumentParser
import BotCore
import ChatBridge
import Foundation
import Logging
import MatrixModel
import MatrixTransport

/// `awfulbot-bench matrix`: the bot against a real Synapse (`scripts/with-synapse .build/release/awfulbot-bench
/// matrix`). Registers a fresh bot and owner, runs the forum emulator and the real forum client, engine and Matrix
/// transport in this process, and measures, each in rooms of its own:
/// - relay latency: a new post on the emulator → bookmarks poll → outbox → dispatcher → homeserver → the owner's
///   `/sync` long-poll returning it;
/// - dispatcher throughput with rate limits off: K posts queued, then `Dispatcher.drain()` timed, for 1 and 4 rooms,
///   against a plain sender (`MatrixPlainSender`) putting as many events into as many rooms, rounds alternating;
/// - the same into end-to-end encrypted rooms against plain rooms, and the time per send in each;
/// - relays with one picture each against the same posts with the pictures left as links (`--legs images`).
struct MatrixBenchmark: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "matrix", abstract: "Relay latency and dispatcher throughput against a real Matrix homeserver.")

  /// Latency samples dropped at the start: the first sends open connections and warm the homeserver's caches.
  static let warmups = 2

  @Option(help: "Homeserver URL (default: $AWFULBOT_SYNAPSE_URL).")
  var homeserver: String?

  @Option(help: "Synapse's registration_shared_secret (default: $AWFULBOT_SYNAPSE_SECRET).")
  var registrationSecret: String?

  @Option(help: "Posts relayed one by one for the latency figures (the first \(MatrixBenchmark.warmups) are warm-ups).")
  var posts = 15

  @Option(help: "Events queued per throughput run (split evenly over the rooms).")
  var throughputPosts = 400

  @Option(help: "Room counts of the throughput runs, comma-separated.", transform: MatrixBenchmark.roomCounts)
  var rooms: [Int] = [1, 4]

  @Option(help: "Posts relayed per leg of the images comparison (each with one picture of its own).")
  var imagePosts = 60

  @Option(help: "Rounds of the throughput comparison (bot and plain sender each once per round).")
  var rounds = 3

  @Option(help: "Events per turn of the interleaved comparison (split evenly over the rooms).")
  var chunk = 100

  @Option(help: "What the plain sender's events carry: `bot` (the content of one of the bot's events) or `minimal`.")
  var plainContent: MatrixPlainContent = .bot

  @Option(
    help:
      "Measurements to run, comma-separated: latency, throughput, side-by-side, interleaved, encrypted, images (default: latency,throughput,encrypted,images).",
    transform: MatrixBenchmark.legs)
  var legs: Set<MatrixBenchLeg> = [.latency, .throughput, .encrypted, .images]

  func validate() throws {
    guard posts > Self.warmups else { throw ValidationError("--posts must exceed the \(Self.warmups) warm-ups") }
    guard !rooms.isEmpty, rooms.allSatisfy({ $0 > 0 }) else { throw ValidationError("--rooms needs counts above 0") }
    guard rounds > 0 else { throw ValidationError("--rounds must be at least 1") }
    guard chunk >= rooms.max() ?? 1 else { throw ValidationError("--chunk must be at least the largest room count") }
    guard throughputPosts >= rooms.max() ?? 1 else {
      throw ValidationError("--throughput-posts must be at least the largest room count")
    }
  }

  static func legs(_ text: String) throws -> Set<MatrixBenchLeg> {
    Set(
      try text.split(separator: ",").map { part in
        let name = part.trimmingCharacters(in: .whitespaces)
        guard let leg = MatrixBenchLeg(rawValue: name) else {
          throw ValidationError(
            "--legs wants some of \(MatrixBenchLeg.allCases.map(\.rawValue).joined(separator: ",")), not “\(name)”")
        }
        return leg
      })
  }

  static func roomCounts(_ text: String) throws -> [Int] {
    try text.split(separator: ",").map { part in
      guard let count = Int(part.trimmingCharacters(in: .whitespaces)) else {
        throw ValidationError("--rooms wants comma-separated numbers like 1,4, not “\(text)”")
      }
      return count
    }
  }

  func run() async throws {
    let url = try homeserverURL()
    let secret = try sharedSecret()
    var logger = Logger(label: "awfulbot.bench.matrix")
    logger.logLevel = .error
    let client = MatrixClient(homeserver: url, logger: logger)
    try await checkReachable(client, url: url)
    let bot = try await register("bench_bot", admin: false, secret: secret, client: client)
    let owner = MatrixBenchOwner(
      account: try await register("bench_owner", admin: true, secret: secret, client: client), client: client)
    let plain = try await register("bench_plain", admin: false, secret: secret, client: client)
    // Synapse under scripts/with-synapse already has every limit raised; this makes the run independent of that.
    for user in [bot.userID, plain.userID] {
      try await client.overrideRateLimit(
        token: owner.account.accessToken, userID: user, messagesPerSecond: 0, burstCount: 0)
    }

    let forum = try await MatrixBenchForum.start()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("awfulbot-bench-matrix-\(UUID())")
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let context = MatrixBenchContext(
        homeserver: url, bot: bot, owner: owner, forum: forum, directory: directory, logger: logger)
      print("awfulbot-bench matrix: \(url.absoluteString), bot \(bot.userID), owner \(owner.account.userID)")
      if legs.contains(.latency) {
        try await MatrixLatencyRun(context: context, posts: posts, warmups: Self.warmups).measure()
      }
      if legs.contains(.throughput) {
        try await MatrixThroughputComparison(
          context: context, plainAccount: plain, roomCounts: rooms, events: throughputPosts, rounds: rounds,
          plainContent: plainContent
        ).measure()
      }
      if legs.contains(.sideBySide) {
        try await MatrixSideBySideComparison(
          context: context, plainAccount: plain, roomCounts: rooms, events: throughputPosts, rounds: rounds
        ).measure()
      }
      if legs.contains(.interleaved) {
        try await MatrixInterleavedComparison(
          context: context, plainAccount: plain, roomCounts: rooms, events: throughputPosts, chunk: chunk,
          rounds: rounds
        ).measure()
      }
      if legs.contains(.encrypted) {
        try await MatrixEncryptedComparison(
          context: context, roomCounts: rooms, events: throughputPosts, rounds: rounds
        ).measure()
        try await MatrixEncryptedSendRun(context: context, sends: posts * 2).measure()
      }
      if legs.contains(.images) {
        try await MatrixImagesComparison(context: context, posts: imagePosts, rounds: rounds).measure()
      }
      let usage = ProcessUsage.now()
      print(
        "process total: CPU \(String(format: "%.2f", usage.cpuSeconds)) s, peak RSS "
          + "\(String(format: "%.1f", usage.peakResidentMiB)) MiB (emulator and bot in this process)")
    } catch {
      await forum.stop()
      try? FileManager.default.removeItem(at: directory)
      throw error
    }
    await forum.stop()
    try? FileManager.default.removeItem(at: directory)
  }

  private func homeserverURL() throws -> URL {
    let text = homeserver ?? ProcessInfo.processInfo.environment["AWFULBOT_SYNAPSE_URL"]
    guard let text, !text.isEmpty else { throw MatrixBenchmarkError.missingHomeserver }
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
      url.host != nil
    else { throw ValidationError("--homeserver must be an http(s) URL, not “\(text)”") }
    return url
  }

  private func sharedSecret() throws -> String {
    let secret = registrationSecret ?? ProcessInfo.processInfo.environment["AWFULBOT_SYNAPSE_SECRET"]
    guard let secret, !secret.isEmpty else { throw MatrixBenchmarkError.missingSecret }
    return secret
  }

  private func checkReachable(_ client: MatrixClient, url: URL) async throws {
    do {
      let versions = try await client.versions(timeout: .seconds(10))
      guard !versions.versions.isEmpty else {
        throw MatrixBenchmarkError.homeserverUnreachable(url: url.absoluteString, reason: "no client-server versions")
      }
    } catch let error as MatrixClientError {
      let reason: String
      if case .network(let cause) = error { reason = cause } else { reason = error.description }
      throw MatrixBenchmarkError.homeserverUnreachable(url: url.absoluteString, reason: reason)
    }
  }

  private func register(_ prefix: String, admin: Bool, secret: String, client: MatrixClient) async throws
    -> SynapseAccount
  {
    do {
      return try await SynapseAccount.register(prefix, admin: admin, secret: secret, client: client)
    } catch MatrixClientError.api(let error) {
      throw MatrixBenchmarkError.registrationRefused(reason: error.description)
    }
  }
}
