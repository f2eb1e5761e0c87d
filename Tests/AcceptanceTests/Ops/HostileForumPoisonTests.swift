import AwfulBotTestKit
import BotStore
import FakeForum
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The hostile-forum suite, the poison message (issue 43): a forum post whose relay stops the process in its send
/// (a fault the test injects with `AWFULBOT_FAULT_CRASH_ON_SEND`, standing for the next bug a post can reach) is
/// parked after its second death, the posts after it are relayed, and the bot stays up; `status` names the row.
/// The real `awfulbot run` on the console transport (its relays are its standard output), restarted as systemd
/// would, against the forum emulator on loopback. No chat server is needed.
@Suite("hostile forum: a post that stops the bot")
struct HostileForumPoisonTests {
  static let thread = 3_600_001

  /// One bot's files, forum and process runs.
  final class PoisonBot {
    let binary: String
    let forum: FakeForumServer
    let directory: URL
    let configPath: String
    let logPath: String
    let variables: [String: String]
    var databasePath: String { directory.appendingPathComponent("data/awfulbot.sqlite").path }

    init(binary: String, forum: FakeForumServer, forumRoot: URL, crashOn text: String) throws {
      self.binary = binary
      self.forum = forum
      directory = TestScratch.path("awfulbot-poison")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let configuration: [String: Any] = [
        "forum": [
          "baseURL": forumRoot.absoluteString + "/", "username": FakeForumSeed.botUsername,
          "requestSpacingSeconds": 0, "announcementsForumID": "273",
        ],
        "dataDirectory": directory.appendingPathComponent("data").path,
        "polling": [
          "bookmarksSeconds": 5, "bookmarksMinimumSeconds": 5, "announcementsSeconds": 3600, "forumsSeconds": 3600,
        ],
        "transports": [["type": "console", "name": "console"]],
        "rooms": [
          ["transport": "console", "room": "console", "subscriptions": ["thread:\(HostileForumPoisonTests.thread)"]]
        ],
        "logging": ["level": "info"],
        "metrics": ["enabled": false],
      ]
      configPath = directory.appendingPathComponent("awfulbot.json").path
      try JSONSerialization.data(withJSONObject: configuration).write(to: URL(fileURLWithPath: configPath))
      logPath = directory.appendingPathComponent("run.log").path
      variables = [
        "PATH": "/usr/bin:/bin", "HOME": directory.path, "AWFULBOT_FORUM_PASSWORD": FakeForumSeed.botPassword,
        "AWFULBOT_FAULT_CRASH_ON_SEND": text,
      ]
    }

    /// `awfulbot run`, its output (relays and log) appended to `run.log`.
    func start() throws -> BotProcess {
      try BotProcess.spawn(binary, ["run", "--config", configPath], environment: variables, output: logPath)
    }

    /// What `awfulbot <arguments> --config …` printed, once it ended (with how it ended).
    func command(_ arguments: [String]) async throws -> (output: String, ending: BotProcess.Ending?) {
      let output = directory.appendingPathComponent("command-\(UUID()).txt").path
      let process = try BotProcess.spawn(
        binary, arguments + ["--config", configPath], environment: variables, output: output)
      let ending = await process.reap(timeout: .seconds(30))
      if ending == nil { process.killAndReap() }
      return ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "", ending)
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    func logTail(_ count: Int = 25) -> String {
      log.split(separator: "\n").suffix(count).joined(separator: "\n")
    }

    /// How many times `text` occurs in the bot's output.
    func occurrences(of text: String) -> Int {
      log.components(separatedBy: text).count - 1
    }

    /// The outbox as the running bot's database holds it (read-only, as `status` reads it); empty before it exists.
    func outbox() -> [OutboxRecord] {
      (try? ReadOnlyDatabase(path: databasePath).read { tx in try tx.allOutboxRows() }) ?? []
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
  }

  @Test("a relay that stops the bot in its send is parked after its second death; the posts after it go out")
  func poisonPostIsParked() async throws {
    let binary = try #require(
      BotProcess.binary, "the awfulbot executable next to the test bundle (swift build --build-tests builds it)")
    let forum = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo))
    let root = try await forum.start()
    let run = String(UUID().uuidString.prefix(6)).lowercased()
    let (before, poison, after1, after2) = ("\(run)before", "\(run)poison", "\(run)after1", "\(run)after2")
    let bot = try PoisonBot(binary: binary, forum: forum, forumRoot: root, crashOn: poison)
    var process = try bot.start()
    defer {
      // Whatever happened, no bot is left running.
      process.killAndReap()
      bot.remove()
    }

    // The rooms are seeded before the first send: once the thread has a cursor, only new posts are relayed.
    let seeded = try await eventually(timeout: .seconds(60), every: .milliseconds(200)) {
      ((try? ReadOnlyDatabase(path: bot.databasePath).read { tx in try tx.threadCount() }) ?? 0) > 0
    }
    try #require(seeded, "the bot did not seed its rooms; its log ends:\n\(bot.logTail())")
    #expect(bot.log.contains("a test-only fault is set"), "the fault is announced at start")
    for text in [before, poison, after1, after2] {
      _ = try await forum.state.addPost(thread: Self.thread, author: 1002, body: "Post \(text) end")
    }

    // First death: in the poison row's send, with the row marked in flight.
    let first = await process.reap(timeout: .seconds(60))
    guard case .signalled = first else {
      Issue.record("the fault did not stop the bot (\(String(describing: first))); its log ends:\n\(bot.logTail())")
      return
    }
    let poisonRow = try #require(bot.outbox().first { $0.payload.contains(poison) }, "the poison post was queued")
    #expect(poisonRow.inFlightSince != nil, "marked in flight before its send, and still so after the death")
    #expect(poisonRow.state == .pending && poisonRow.crashes == 0)

    // Restarted (as systemd would): one death counted, the row goes out again, alone, and stops the bot again.
    process = try bot.start()
    let second = await process.reap(timeout: .seconds(60))
    guard case .signalled = second else {
      Issue.record("the second run did not die in the row (\(String(describing: second))):\n\(bot.logTail())")
      return
    }
    #expect(bot.outbox().first { $0.id == poisonRow.id }?.crashes == 1)

    // Restarted again: the row is parked and the rest of the room's queue goes on; the bot stays up.
    process = try bot.start()
    let relayed = try await eventually(timeout: .seconds(60), every: .milliseconds(200)) {
      bot.occurrences(of: after2) > 0
    }
    try #require(relayed, "the posts after the poison were not relayed; the log ends:\n\(bot.logTail())")
    #expect(bot.occurrences(of: poison) == 0, "the poison post was never relayed")
    #expect(bot.occurrences(of: after1) == 1 && bot.occurrences(of: after2) == 1)
    let order = [before, after1, after2].compactMap { bot.log.range(of: $0)?.lowerBound }
    #expect(order.count == 3 && order == order.sorted(), "relayed in the order posted")
    // The post before the poison may go out twice (the first death can come before its delivery is marked), never
    // more: once it was sent alone, it was delivered.
    #expect((1...2).contains(bot.occurrences(of: before)))
    #expect(bot.log.contains("message parked"))

    let parked = try #require(bot.outbox().first { $0.id == poisonRow.id })
    #expect(parked.state == .parked && parked.crashes == 2)
    #expect(parked.lastError == "not sent: it stopped the bot twice")
    #expect(bot.outbox().filter { $0.id != poisonRow.id }.allSatisfy { $0.state == .delivered })

    // What the operator sees: the JSON and the text of `status`, while the bot runs.
    let json = try await bot.command(["status", "--json"])
    let start = try #require(json.output.firstIndex(of: "{"), "\(json.output)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(json.output[start...].utf8)) as? [String: Any], "\(json.output)")
    #expect(report["parked"] as? Int == 1)
    let rows = try #require(report["parkedRows"] as? [[String: Any]])
    #expect(rows.count == 1)
    let parkedID = (rows.first?["id"] as? NSNumber)?.int64Value
    #expect(parkedID == poisonRow.id)
    #expect(rows.first?["crashes"] as? Int == 2)
    #expect((report["daemon"] as? [String: Any])?["state"] as? String == "running", "the bot stays up")
    let text = try await bot.command(["status"])
    #expect(text.ending == .exited(1), "parked messages need attention")
    let sentence =
      "parked: ✗ 1 message not sent: it stopped the bot twice (row \(poisonRow.id ?? 0), room console console, "
      + "post \(poisonRow.postID ?? "")"
    #expect(text.output.contains(sentence), "\(text.output)")

    process.kill(SIGTERM)
    #expect(await process.reap(timeout: .seconds(15)) == .exited(0), "alive until asked to stop:\n\(bot.logTail())")
    await forum.stop()
  }
}
