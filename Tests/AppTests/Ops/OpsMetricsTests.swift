import AwfulBotApp
import AwfulBotAppTestKit
import AwfulBotTestKit
import ChatBridge
import FakeForum
import Foundation
import Synchronization
import Testing

/// The metrics listener of a running bot: scraped over HTTP after a real relay from the forum emulator.
@Suite("ops: metrics and health")
struct OpsMetricsTests {
  @Test("after a relay, /metrics counts polls, forum requests, relayed posts and deliveries; health and ready answer")
  func metricsAfterRelay() async throws {
    let forum = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo, pageNav: .new))
    let baseURL = try await forum.start()
    let directory = TestScratch.path("awfulbot-ops-metrics")
    defer { try? FileManager.default.removeItem(at: directory) }
    // A transport name of its own, so the per-transport series belong to this test alone.
    let transportName = "ops-metrics-\(UUID().uuidString.prefix(8).lowercased())"
    let output = Mutex<[String]>([])
    let input = Pipe()
    try input.fileHandleForWriting.close()
    let console = ConsoleTransport(name: transportName, input: input.fileHandleForReading) { line in
      output.withLock { $0.append(line) }
    }
    let configuration = AppConfiguration(
      forum: .emulator(baseURL, requestSpacingSeconds: 0, announcementsForumID: nil),
      dataDirectory: directory.path, polling: .init(bookmarksSeconds: 1),
      transports: [.console(name: transportName)],
      rooms: [.init(transport: transportName, room: "console", subscriptions: [.bookmarks(stars: [])])],
      metrics: MetricsSettings(enabled: true, listen: HostPort(host: "127.0.0.1", port: 0)))
    let application = try BotApplication(configuration: configuration, transports: [console])
    try await application.seedRooms()
    let server = try #require(application.metricsServer)

    let running = Task { try await application.run(signals: []) }
    defer { running.cancel() }
    let port = try await server.boundPort()
    let root = "http://127.0.0.1:\(port)"

    #expect(try await OpsHTTP.get("\(root)/healthz") == (200, "ok\n"))
    let ready = try await eventually(timeout: .seconds(30), every: .milliseconds(100)) {
      try await OpsHTTP.get("\(root)/readyz").status == 200
    }
    #expect(ready, "ready once logged in to the forum")
    // This bot's own first poll, from its database: the metrics registry is shared by every test in the process,
    // so the polls counter may already count another bot's poll. A post added before this bot's first poll would
    // be taken as already there (the first poll only sets the cursors) and never relayed.
    let firstPoll = try await eventually(timeout: .seconds(30), every: .milliseconds(100)) {
      try await application.engine.statusReports.health().sources.contains {
        $0.source == "bookmarks" && $0.lastSuccess != nil
      }
    }
    #expect(firstPoll)
    let before = try await OpsHTTP.get("\(root)/metrics").body
    let relayedBefore = OpsHTTP.value(in: before, "awfulbot_posts_relayed_total") ?? 0

    _ = try await forum.state.addPost(thread: 3_600_001, author: 1002, body: "A post the metrics test relays")
    let relayed = try await eventually(timeout: .seconds(30), every: .milliseconds(100)) {
      output.withLock { $0.contains { $0.hasPrefix("[relay]") && $0.contains("the metrics test relays") } }
    }
    #expect(relayed)
    let deliveredCount = try await eventually(timeout: .seconds(30), every: .milliseconds(100)) {
      let text = try await OpsHTTP.get("\(root)/metrics").body
      return OpsHTTP.value(
        in: text, "awfulbot_deliveries_total", ["transport": transportName, "outcome": "delivered"]) != nil
    }
    #expect(deliveredCount)

    let metrics = try await OpsHTTP.get("\(root)/metrics")
    #expect(metrics.status == 200)
    let text = metrics.body
    let relays = output.withLock { $0.filter { $0.hasPrefix("[relay]") }.count }
    #expect(
      OpsHTTP.value(in: text, "awfulbot_deliveries_total", ["transport": transportName, "outcome": "delivered"])
        == Double(relays))
    #expect((OpsHTTP.value(in: text, "awfulbot_posts_relayed_total") ?? 0) >= relayedBefore + 1)
    #expect((OpsHTTP.value(in: text, "awfulbot_polls_total", ["source": "bookmarks", "outcome": "success"]) ?? 0) >= 2)
    #expect((OpsHTTP.value(in: text, "awfulbot_poll_duration_seconds_count", ["source": "bookmarks"]) ?? 0) >= 2)
    #expect(text.contains("awfulbot_poll_duration_seconds_bucket{"))
    #expect((OpsHTTP.value(in: text, "awfulbot_forum_http_requests_total", ["outcome": "ok"]) ?? 0) >= 3)
    #expect((OpsHTTP.value(in: text, "awfulbot_forum_requests_total", ["source": "bookmarks"]) ?? 0) >= 2)
    #expect(OpsHTTP.value(in: text, "awfulbot_transport_connected", ["transport": transportName]) == 1)
    #expect(OpsHTTP.value(in: text, "awfulbot_forum_logged_in") == 1)
    #expect(OpsHTTP.value(in: text, "awfulbot_outbox_depth", ["transport": transportName]) == 0)
    #expect(OpsHTTP.value(in: text, "awfulbot_build_info", ["version": AppInfo.version]) == 1)
    #expect(try await OpsHTTP.get("\(root)/nothing").status == 404)

    running.cancel()
    _ = await running.result
    await forum.stop()
  }

  @Test("/readyz answers 503 with the reasons while something is not connected")
  func notReady() async throws {
    let state = Mutex<[String]>(["forum: not logged in", "transport matrix: reconnecting"])
    let server = MetricsServer(
      address: HostPort(host: "127.0.0.1", port: 0), readiness: { Readiness(problems: state.withLock { $0 }) })
    let running = Task { try await server.run() }
    defer { running.cancel() }
    let port = try await server.boundPort()
    let notReady = try await OpsHTTP.get("http://127.0.0.1:\(port)/readyz")
    #expect(notReady.status == 503)
    #expect(notReady.body == "not ready\n- forum: not logged in\n- transport matrix: reconnecting\n")
    #expect(try await OpsHTTP.get("http://127.0.0.1:\(port)/healthz").status == 200)
    state.withLock { $0 = [] }
    #expect(try await OpsHTTP.get("http://127.0.0.1:\(port)/readyz") == (200, "ready\n"))
    running.cancel()
    _ = await running.result
  }
}
