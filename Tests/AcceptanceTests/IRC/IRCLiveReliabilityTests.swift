import AwfulBotIRCTestKit
import AwfulBotTestKit
import BotCore
import FakeForum
import Foundation
import Logging
import Testing

@testable import IRCTransport

/// Against the real network: posts keep flowing while InspIRCd restarts (none lost, none twice), and a bot process
/// killed with SIGKILL in the middle of a burst delivers the rest after its restart with at most one duplicate.
extension IRCServerRestartTests {
  @Suite("reliability")
  struct Reliability {
    static let thread = 3_600_001

    /// `run` + `n`, fixed width, so no marker is a prefix of another (`abcn007z`).
    static func marker(_ run: String, _ number: Int) -> String {
      "\(run)n\(String(format: "%03d", number))z"
    }

    /// How often each marker appears in what the bot (any nick starting with `nick`) said, in order of first sight.
    static func sightings(of markers: [String], in lines: [ReceivedLine], from nick: String) -> (
      counts: [String: Int], order: [String]
    ) {
      var counts: [String: Int] = [:]
      var order: [String] = []
      for line in lines where line.nick?.hasPrefix(nick) == true {
        for marker in markers where line.text.contains(marker) {
          if counts[marker, default: 0] == 0 { order.append(marker) }
          counts[marker, default: 0] += 1
        }
      }
      return (counts, order)
    }

    @Test("posts relayed while InspIRCd restarts: every post arrives exactly once, in order")
    func postsThroughServerRestart() async throws {
      let (environment, channel, nick, first) = try await liveChannel("#rst-")
      var configuration = botConfiguration(environment, nick: nick, channels: [channel])
      // The bot comes back later than the watching client, so the client is in the channel again before the
      // queue drains; with SASL, Atheme relinks in between.
      configuration.reconnectDelaySeconds = 4
      configuration.maximumReconnectDelaySeconds = 4
      configuration.reconnectJitter = 0
      let transport = try IRCTransport(configuration: configuration, logger: Logger.quiet())
      let forum = try await ForumSide.start(transport: transport)
      let bot = RunningIRCTransport(transport, with: [forum.dispatcher(for: transport)])
      try await first.waitForJoin(of: nick)
      try await forum.engine.subscriptions.watch(
        threadID: "\(Self.thread)", room: RoomRef(transport: "irc", room: IRCCaseMapping.fold(channel)))

      let run = IRCTestEnvironment.unique("")
      let total = 30
      let markers = (1...total).map { Self.marker(run, $0) }
      let engine = forum.engine
      let state = forum.server.state
      // One post every 250 ms, polled at once: about 7.5 s of posts with the restart in the middle.
      let posting = Task {
        for (index, marker) in markers.enumerated() {
          _ = try await state.addPost(thread: Self.thread, author: 1002, body: "Post \(index + 1) \(marker) here")
          await engine.polling.poll(.bookmarks)
          try await Task.sleep(for: .milliseconds(250))
        }
      }
      try await first.waitFor("the first posts", timeout: .seconds(20)) {
        $0.nick == nick && $0.text.contains(markers[4])
      }
      try await environment.restartServer(downFor: 1)
      try await first.waitUntilClosed()
      let second = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("t"), environment: environment)
      try await second.join(channel)
      try await posting.value

      try await waitUntil(timeout: .seconds(60)) {
        let seen = Self.sightings(of: markers, in: await first.lines + second.lines, from: nick)
        return seen.counts.count == total
      }
      let seen = Self.sightings(of: markers, in: await first.lines + second.lines, from: nick)
      let lost = markers.filter { seen.counts[$0] == nil }
      let twice = markers.filter { (seen.counts[$0] ?? 0) > 1 }
      #expect(lost.isEmpty, "lost: \(lost)")
      #expect(twice.isEmpty, "duplicated: \(twice)")
      #expect(seen.order == markers, "in the order they were posted")
      #expect(await transport.registrationCount() >= 2, "the bot did reconnect")
      let database = forum.engine.database
      try? await waitUntil(timeout: .seconds(10)) {
        ((try? await database.read { try $0.allOutboxRows() }) ?? []).allSatisfy { $0.state == .delivered }
      }
      let rows = try await database.read { try $0.allOutboxRows() }
      #expect(rows.count == total && rows.allSatisfy { $0.state == .delivered }, "\(rows.map(\.state))")

      await bot.stop()
      await forum.stop()
      await second.quit()
    }

    @Test("`awfulbot run` killed with SIGKILL mid-burst: after a restart every post arrives, at most one twice")
    func sigkillMidBurst() async throws {
      let environment = try IRCTestEnvironment.required
      let binary = try #require(
        BotProcess.binary, "the awfulbot executable next to the test bundle (swift build --build-tests builds it)")
      let channel = IRCTestEnvironment.unique("#kill-")
      let nick = IRCTestEnvironment.unique("bot")
      let observer = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("o"), environment: environment)
      try await observer.join(channel)

      let forum = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo))
      let root = try await forum.start()
      let directory = TestScratch.path("awfulbot-kill")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let configuration: [String: Any] = [
        "forum": [
          "baseURL": root.absoluteString + "/", "username": FakeForumSeed.botUsername, "requestSpacingSeconds": 0,
          "announcementsForumID": "273",
        ],
        "dataDirectory": directory.appendingPathComponent("data").path,
        "polling": ["bookmarksSeconds": 5, "announcementsSeconds": 3600, "forumsSeconds": 3600, "replayCap": 50],
        "transports": [
          [
            "type": "irc", "name": "irc", "server": "\(environment.host):\(environment.port)", "tls": false,
            "nick": nick, "channels": [channel], "floodBurst": 1, "floodIntervalSeconds": 0.1,
            "reconnectDelaySeconds": 0.5,
          ]
        ],
        "rooms": [["transport": "irc", "room": channel, "subscriptions": ["thread:\(Self.thread)"]]],
        "logging": ["level": "info"],
        "metrics": ["enabled": false],
      ]
      let configPath = directory.appendingPathComponent("awfulbot.json").path
      try JSONSerialization.data(withJSONObject: configuration).write(to: URL(fileURLWithPath: configPath))
      let log = directory.appendingPathComponent("run.log").path
      let environmentVariables = [
        "PATH": "/usr/bin:/bin", "HOME": directory.path, "AWFULBOT_FORUM_PASSWORD": FakeForumSeed.botPassword,
      ]
      func start() throws -> BotProcess {
        try BotProcess.spawn(
          binary, ["run", "--config", configPath], environment: environmentVariables, output: log)
      }
      func logTail() -> String {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").suffix(15)
          .joined(separator: "\n")
      }

      var process = try start()
      defer {
        // Whatever happened, no bot is left running.
        process.killAndReap()
      }
      try await observer.waitFor("the bot joins", timeout: .seconds(30)) { $0.command == "JOIN" && $0.nick == nick }
      // Joined after seeding its rooms: the thread's cursor is at its last post, so only new posts are relayed.
      let run = IRCTestEnvironment.unique("")
      let total = 24
      let markers = (1...total).map { Self.marker(run, $0) }
      for (index, marker) in markers.enumerated() {
        _ = try await forum.state.addPost(thread: Self.thread, author: 1002, body: "Burst \(index + 1) \(marker) end")
      }
      // The next poll (within 5 s) queues all of them; one line per 100 ms sends them over several seconds.
      let mark = await observer.mark()
      try await observer.waitFor("a third of the burst", from: mark, timeout: .seconds(30)) {
        $0.nick?.hasPrefix(nick) == true && $0.text.contains(markers[7])
      }
      process.kill(SIGKILL)
      let ending = await process.reap()
      #expect(ending == .signalled(SIGKILL), "killed, not exited: \(String(describing: ending))")
      let killedAfter = Self.sightings(of: markers, in: await observer.lines, from: nick).counts.count
      #expect(killedAfter < total, "killed mid-burst (\(killedAfter) of \(total) seen)")

      process = try start()
      do {
        try await waitUntil(timeout: .seconds(60)) {
          Self.sightings(of: markers, in: await observer.lines, from: nick).counts.count == total
        }
      } catch {
        Issue.record("not every post arrived after the restart; the bot's log ends:\n\(logTail())")
      }
      // One more post is a barrier: the bot sends a channel's rows in order, so once it arrives nothing queued before
      // it is still in flight to show up twice.
      let barrier = Self.marker(run, total + 1)
      _ = try await forum.state.addPost(thread: Self.thread, author: 1002, body: "Burst end \(barrier) end")
      try await observer.waitFor("the post after the burst", from: mark, timeout: .seconds(30)) {
        $0.nick?.hasPrefix(nick) == true && $0.text.contains(barrier)
      }
      let seen = Self.sightings(of: markers, in: await observer.lines, from: nick)
      let lost = markers.filter { seen.counts[$0] == nil }
      let duplicates = seen.counts.values.reduce(0) { $0 + max($1 - 1, 0) }
      #expect(lost.isEmpty, "lost: \(lost)")
      #expect(duplicates <= 1, "\(duplicates) duplicates after one crash: \(seen.counts.filter { $0.value > 1 })")
      #expect(seen.order == markers, "in the order they were posted")

      process.kill(SIGTERM)
      #expect(await process.reap(timeout: .seconds(15)) == .exited(0), "a clean exit on SIGTERM; log:\n\(logTail())")
      await forum.stop()
      await observer.quit()
      try? FileManager.default.removeItem(at: directory)
    }
  }
}
