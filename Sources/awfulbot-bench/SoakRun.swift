import AsyncHTTPClient
import FakeForum
import Foundation
import Logging
import MatrixTransport
import NIOCore
import Synchronization

/// One soak: the accounts, rooms and channel, the emulator and the bot as child processes, the encrypted room's
/// member and the IRC listener; then the activity, the samples and the count of what each service received.
final class SoakRun: Sendable {
  let directory: URL
  let forum: SoakForum
  let configuration: SoakBotConfiguration
  private let forumProcess: SoakChild
  private let bot: SoakChild
  private let member: SoakEncryptedMember
  private let listener: SoakIRCListener
  private let client: MatrixClient
  private let botAccount: SynapseAccount
  private let observer: SynapseAccount
  private let memberAccount: SynapseAccount
  /// Marker number → kind, for every event the emulator took.
  private let made = Mutex<[Int: SoakForum.Event]>([:])

  private init(
    directory: URL, forum: SoakForum, configuration: SoakBotConfiguration, forumProcess: SoakChild, bot: SoakChild,
    member: SoakEncryptedMember, listener: SoakIRCListener, client: MatrixClient, botAccount: SynapseAccount,
    observer: SynapseAccount, memberAccount: SynapseAccount
  ) {
    self.directory = directory
    self.forum = forum
    self.configuration = configuration
    self.forumProcess = forumProcess
    self.bot = bot
    self.member = member
    self.listener = listener
    self.client = client
    self.botAccount = botAccount
    self.observer = observer
    self.memberAccount = memberAccount
  }

  /// Sets everything up and waits until the bot is in every room and has read every forum source once, so every
  /// event after that is new to it.
  static func start(
    environment: SoakEnvironment, executable: String, directory: URL, spacing: Double, logger: Logger
  ) async throws -> SoakRun {
    let client = MatrixClient(homeserver: environment.homeserver, logger: logger)
    let secret = environment.synapseSecret
    let botAccount = try await SynapseAccount.register("soak_bot", admin: false, secret: secret, client: client)
    let observer = try await SynapseAccount.register("soak_observer", admin: true, secret: secret, client: client)
    let memberAccount = try await SynapseAccount.register("soak_member", admin: false, secret: secret, client: client)
    // Synapse under scripts/with-synapse has every limit raised already; this keeps the run independent of that.
    try await client.overrideRateLimit(
      token: observer.accessToken, userID: botAccount.userID, messagesPerSecond: 0, burstCount: 0)
    let plainRoom = try await client.createRoom(
      token: observer.accessToken, name: "soak plain", invite: [botAccount.userID])
    var cleanups: [@Sendable () async -> Void] = []
    do {
      let member = try await SoakEncryptedMember(
        python: environment.e2eePython, script: environment.e2eeScript, directory: directory,
        userID: memberAccount.userID, password: memberAccount.password)
      cleanups.append { await member.stop() }
      let encryptedRoom = try await member.createRoom(name: "soak encrypted", invite: [botAccount.userID])
      let device = await member.deviceID
      SoakOutput.line(
        "soak: matrix rooms \(plainRoom) (plain) and \(encryptedRoom) (encrypted, member device \(device)), bot "
          + botAccount.userID)

      // Letters only: nicks and channel names of every run apart, valid on any network.
      let suffix = String((0..<6).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement() ?? "x" })
      let channel = "#soak-\(suffix)"
      let botNick = "soakbot\(suffix)"
      let listener = try SoakIRCListener(
        host: environment.ircHost, port: environment.ircPort, nick: "soakobs\(suffix)", channel: channel,
        botNick: botNick)
      cleanups.append { listener.quit() }
      try await waitFor("the IRC listener to register", seconds: 30) { listener.isRegistered }

      let forumPort = try SoakPort.free()
      let forumProcess = try SoakChild(
        name: "fake-forum", executable: executable,
        arguments: ["fake-forum", "--port", String(forumPort), "--seed", "demo"], environment: [:],
        stdout: directory.appendingPathComponent("forum.log"), stderr: directory.appendingPathComponent("forum.log"))
      cleanups.append { await forumProcess.stop(grace: 5) }
      let forumURL = URL(string: "http://127.0.0.1:\(forumPort)")!
      let forum = SoakForum(baseURL: forumURL)
      try await waitFor("the emulator to answer", seconds: 30) { (try? await forum.clearRequests()) != nil }

      let configuration = SoakBotConfiguration(
        forumURL: forumURL, dataDirectory: directory.appendingPathComponent("data"), spacing: spacing,
        metricsPort: try SoakPort.free(), homeserver: environment.homeserver, botUserID: botAccount.userID,
        plainRoom: plainRoom, encryptedRoom: encryptedRoom, inviters: [observer.userID, memberAccount.userID],
        ircServer: "\(environment.ircHost):\(environment.ircPort)", ircNick: botNick, ircChannel: channel,
        ircAccount: environment.ircAccount)
      let configPath = directory.appendingPathComponent("config.json")
      try configuration.write(to: configPath)
      let bot = try SoakChild(
        name: "awfulbot run", executable: executable, arguments: ["run", "--config", configPath.path],
        environment: [
          SoakBotConfiguration.forumPasswordVariable: FakeForumSeed.botPassword,
          SoakBotConfiguration.matrixTokenVariable: botAccount.accessToken,
          SoakBotConfiguration.matrixPasswordVariable: botAccount.password,
          SoakBotConfiguration.ircPasswordVariable: environment.ircPassword,
        ],
        stdout: directory.appendingPathComponent("bot.out"), stderr: directory.appendingPathComponent("bot.log"))
      cleanups.append { await bot.stop() }
      let run = SoakRun(
        directory: directory, forum: forum, configuration: configuration, forumProcess: forumProcess, bot: bot,
        member: member, listener: listener, client: client, botAccount: botAccount, observer: observer,
        memberAccount: memberAccount)
      try await run.waitUntilReady()
      return run
    } catch {
      for cleanup in cleanups.reversed() { await cleanup() }
      throw error
    }
  }

  private func waitUntilReady() async throws {
    let started = ContinuousClock.now
    let sources = ["/bookmarkthreads.php", "/forumdisplay.php", "/announcement.php", "/private.php"]
    try await Self.waitFor("the bot to join every room and read every forum source", seconds: 180) { [self] in
      guard bot.isRunning else { throw SoakError.failed("awfulbot run exited during start-up:\n\(logTail())") }
      let plain =
        (try? await client.isJoined(
          botAccount.userID, room: configuration.plainRoom, token: observer.accessToken)) ?? false
      let encrypted =
        (try? await client.isJoined(
          botAccount.userID, room: configuration.encryptedRoom, token: memberAccount.accessToken)) ?? false
      guard plain, encrypted, listener.botJoined else { return false }
      return try await forum.hasRequested(sources)
    }
    // The first poll of each source stores its starting point after its request; give the writes a moment.
    try await Task.sleep(for: .seconds(5))
    try await forum.clearRequests()
    SoakOutput.line("soak: bot ready in \(Int(Self.seconds(since: started))) s (pid \(bot.pid))")
  }

  /// The activity and the samples side by side for `minutes`, then the wait for the last deliveries and the count.
  func measure(
    minutes: Double, interval: ClosedRange<Double>, sampleSeconds: Double, drainSeconds: Double, seed: UInt64
  ) async throws -> SoakOutcome {
    let start = ContinuousClock.now
    let end = start + .seconds(minutes * 60)
    async let activity: Void = makeEvents(until: end, interval: interval, seed: seed)
    let samples = try await sample(from: start, until: end, every: sampleSeconds)
    try await activity
    let events = made.withLock { $0 }
    SoakOutput.line("soak: activity over, \(events.count) events; waiting for the last deliveries…")
    let deliveries = try await count(Set(events.keys), within: drainSeconds)
    return SoakOutcome(samples: samples, events: events, deliveries: deliveries)
  }

  /// Stops everything; returns the bot's exit status after SIGTERM (nil when it had to be killed).
  @discardableResult
  func stop() async -> Int32? {
    let status = await bot.stop()
    await member.stop()
    listener.quit()
    await forumProcess.stop(grace: 5)
    return status
  }

  // MARK: Activity

  /// Which event number `number` is: mostly replies; a new thread and a private message every 20 events; an
  /// announcement every 100 (announcements pile up on the emulator's one page, which the bot reads whole).
  static func kind(of number: Int) -> SoakForum.Event {
    if number % 100 == 50 { return .announcement }
    if number % 20 == 5 { return .thread }
    if number % 20 == 15 { return .privateMessage }
    return .post
  }

  private func makeEvents(until end: ContinuousClock.Instant, interval: ClosedRange<Double>, seed: UInt64)
    async throws
  {
    var random = BenchRandom(seed: seed)
    var next = ContinuousClock.now
    var number = 0
    while true {
      next += .seconds(Double.random(in: interval, using: &random))
      guard next < end else { return }
      try await Task.sleep(until: next, clock: .continuous)
      number += 1
      let kind = Self.kind(of: number)
      var attempt = 0
      while true {
        do {
          try await forum.make(kind, number: number, random: &random)
          break
        } catch {
          attempt += 1
          if attempt >= 5 { throw SoakError.failed("the emulator refused event \(number) (\(kind)): \(error)") }
          try await Task.sleep(for: .milliseconds(200))
        }
      }
      made.withLock { $0[number] = kind }
    }
  }

  // MARK: Samples

  private func sample(from start: ContinuousClock.Instant, until end: ContinuousClock.Instant, every seconds: Double)
    async throws -> [SoakSample]
  {
    let csvURL = directory.appendingPathComponent("samples.csv")
    _ = FileManager.default.createFile(atPath: csvURL.path, contents: Data((SoakSample.csvHeader + "\n").utf8))
    let csv = try FileHandle(forWritingTo: csvURL)
    defer { try? csv.close() }
    try csv.seekToEnd()
    var samples: [SoakSample] = []
    var next = start
    var reportedMinute = -1
    while next <= end {
      try await Task.sleep(until: next, clock: .continuous)
      next += .seconds(seconds)
      let elapsed = Self.seconds(since: start)
      let depth = await outboxDepth()
      guard bot.isRunning, let sample = SoakSample.read(pid: bot.pid, elapsed: elapsed, outboxDepth: depth) else {
        throw SoakError.failed("awfulbot run exited after \(Int(elapsed)) s:\n\(logTail())")
      }
      samples.append(sample)
      try csv.write(contentsOf: Data((sample.csvRow + "\n").utf8))
      let minute = Int(elapsed / 60)
      if minute > reportedMinute {
        reportedMinute = minute
        let events = made.withLock { $0.count }
        SoakOutput.line(
          "[\(minute) min] RSS \(String(format: "%.1f", sample.rssMiB)) MiB (anonymous "
            + "\(String(format: "%.1f", sample.anonMiB))), fds \(sample.descriptors), threads \(sample.threads), "
            + "outbox \(depth.map(String.init) ?? "?"); events \(events), IRC lines \(listener.lineCount)")
        // The emulator logs every request; clearing keeps its memory, and the machine's, flat for hours.
        try? await forum.clearRequests()
      }
    }
    return samples
  }

  /// Relays queued and unsent, from the bot's metrics (scraped as Prometheus would); nil when unreadable.
  private func outboxDepth() async -> Int? {
    var request = HTTPClientRequest(url: "http://127.0.0.1:\(configuration.metricsPort)/metrics")
    request.method = .GET
    guard let response = try? await HTTPClient.shared.execute(request, timeout: .seconds(10)),
      let body = try? await response.body.collect(upTo: 16 << 20)
    else { return nil }
    let text = String(buffer: body)
    var depth = 0.0
    // The per-transport gauge: the per-room one keeps a room's last non-zero depth once its queue empties.
    for line in text.split(separator: "\n") where line.hasPrefix("awfulbot_outbox_depth{") {
      depth += line.split(separator: " ").last.flatMap { Double($0) } ?? 0
    }
    return Int(depth)
  }

  // MARK: Counting

  /// Waits until the plain room, the channel and the console have every marker (or `seconds` pass), then reads the
  /// encrypted room as its member's client decrypts it.
  private func count(_ expected: Set<Int>, within seconds: Double) async throws -> [SoakDelivery] {
    let deadline = ContinuousClock.now + .seconds(seconds)
    var plain: [Int: Int] = [:]
    var irc: [Int: Int] = [:]
    var console: [Int: Int] = [:]
    while true {
      let bodies = try await client.messageBodies(
        token: observer.accessToken, roomID: configuration.plainRoom, sender: botAccount.userID)
      plain = SoakDelivery.seen(inMessages: bodies)
      irc = listener.seen
      console = SoakDelivery.seen(inMessages: consoleMessages())
      let complete = [plain, irc, console].allSatisfy { seen in expected.allSatisfy { seen[$0] != nil } }
      if complete || ContinuousClock.now >= deadline { break }
      try await Task.sleep(for: .seconds(10))
    }
    var history = SoakEncryptedMember.History()
    var encrypted: [Int: Int] = [:]
    for attempt in 1...3 {
      // Room keys still on their way as to-device messages get up to 60 s.
      history = try await member.history(room: configuration.encryptedRoom, sender: botAccount.userID, wait: 60)
      encrypted = SoakDelivery.seen(inMessages: history.bodies)
      if expected.allSatisfy({ encrypted[$0] != nil }) || attempt == 3 { break }
      try await Task.sleep(for: .seconds(20))
    }
    var notes: [String] = []
    if history.unencrypted > 0 { notes.append("\(history.unencrypted) sent in clear text") }
    if history.undecryptable > 0 { notes.append("\(history.undecryptable) undecryptable") }
    if history.insecure > 0 { notes.append("\(history.insecure) from a device not cross-signed") }
    return [
      SoakDelivery(service: "Matrix, plain room", expected: expected, seen: plain),
      SoakDelivery(
        service: "Matrix, encrypted room (decrypted, Element's policy)", expected: expected, seen: encrypted,
        notes: notes),
      SoakDelivery(service: "IRC channel", expected: expected, seen: irc),
      SoakDelivery(service: "console (the bot's stdout)", expected: expected, seen: console),
    ]
  }

  /// The console's messages from the bot's stdout: each starts with `[relay]` or `[reply]`, its further lines
  /// indented.
  private func consoleMessages() -> [String] {
    guard let text = try? String(contentsOf: directory.appendingPathComponent("bot.out"), encoding: .utf8) else {
      return []
    }
    var messages: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("[relay]") || line.hasPrefix("[reply]") || messages.isEmpty {
        messages.append(String(line))
      } else {
        messages[messages.count - 1] += "\n" + line
      }
    }
    return messages
  }

  // MARK: Support

  private func logTail() -> String {
    let text = (try? String(contentsOf: directory.appendingPathComponent("bot.log"), encoding: .utf8)) ?? ""
    return text.split(separator: "\n").suffix(15).joined(separator: "\n")
  }

  static func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }

  private static func waitFor(_ what: String, seconds: Double, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while try await !condition() {
      guard ContinuousClock.now < deadline else { throw SoakError.setup("timed out waiting for \(what)") }
      try await Task.sleep(for: .milliseconds(500))
    }
  }
}
