import AwfulBotApp
import AwfulBotEngineTestKit
import AwfulBotTestKit
import BotCore
import BotStore
import ChatBridge
import Foundation
import Testing

/// The `polling` keys of issue 28 (the floor, the ceiling and the full sweep) from the file to the engine, and the
/// pace in `awfulbot status`.
@Suite("polling settings")
struct PollingSettingsTests {
  private func write(_ json: String) throws -> String {
    let url = TestScratch.path("awfulbot-polling", extension: "json")
    try Data(json.utf8).write(to: url)
    return url.path
  }

  private func config(polling: String) -> String {
    """
    {"forum": {"username": "bot", "password": "pw"}, "transports": [{"type": "console"}],
     "polling": \(polling)}
    """
  }

  @Test("floor, ceiling and full-sweep period reach the engine; defaults 10 s, 60 s, an hour, a minute for forums")
  func keysReachTheEngine() async throws {
    let directory = try TemporaryDirectory("awfulbot-polling")
    defer { directory.remove() }
    let path = try write(
      config(
        polling: """
          {"bookmarksSeconds": 120, "bookmarksMinimumSeconds": 15, "bookmarksFullSweepSeconds": 7200,
           "forumsSeconds": 600, "forumsMinimumSeconds": 90}
          """))
    let configuration = try AppConfiguration.load(path: path)
    #expect(configuration.polling?.bookmarksMinimumSeconds == 15)
    let application = try BotApplication(
      configuration: configuration, transports: [RecordingTransport()], databasePath: directory.path("a.sqlite"))
    let engine = application.engine.configuration
    #expect(engine.bookmarksInterval == .seconds(120) && engine.bookmarksMinimumInterval == .seconds(15))
    #expect(engine.bookmarksFullSweepInterval == .seconds(7200))
    #expect(engine.forumsInterval == .seconds(600) && engine.forumsMinimumInterval == .seconds(90))
    try await application.client.shutdown()

    let plain = try BotApplication(
      configuration: try AppConfiguration.load(path: try write(config(polling: "{}"))),
      transports: [RecordingTransport()], databasePath: directory.path("b.sqlite"))
    let defaults = plain.engine.configuration
    try await plain.client.shutdown()
    #expect(defaults.bookmarksInterval == .seconds(60) && defaults.bookmarksMinimumInterval == .seconds(10))
    #expect(defaults.bookmarksFullSweepInterval == .seconds(3600) && defaults.forumsMinimumInterval == .seconds(60))
  }

  @Test("a floor above its ceiling is reported, against the default ceiling too")
  func floorAboveCeiling() throws {
    let path = try write(
      config(polling: #"{"bookmarksSeconds": 30, "bookmarksMinimumSeconds": 45, "forumsMinimumSeconds": 400}"#))
    let error = try #require(throws: ConfigurationError.self) { try AppConfiguration.load(path: path) }
    #expect(
      error.problems == [
        "polling.bookmarksMinimumSeconds: must not be above polling.bookmarksSeconds (30.0), got 45.0",
        "polling.forumsMinimumSeconds: must not be above polling.forumsSeconds (300.0), got 400.0",
      ])
  }

  @Test("awfulbot status shows each source's interval and why")
  func statusShowsThePace() async throws {
    let directory = try TemporaryDirectory("awfulbot-polling-status")
    defer { directory.remove() }
    let path = directory.path("awfulbot.sqlite")
    let database = try BotDatabase(path: path)
    let forum = TestForum()
    forum.addThread("1", posts: 1)
    var configuration = EngineConfiguration()
    configuration.jitter = 0
    let engine = BotEngine(database: database, forum: forum, transports: [:], configuration: configuration)
    await engine.polling.poll(.bookmarks)

    let report = try StatusReport.read(databasePath: path)
    let bookmarks = try #require(report.sources.first { $0.source == "bookmarks" })
    #expect(
      bookmarks.pace == "every 20 s: nothing new in 1 check; after 5 min without news the wait doubles up to 1 min")
    #expect(
      report.text().contains(
        "\n      every 20 s: nothing new in 1 check; after 5 min without news the wait doubles up to 1 min"))
    try database.close()
  }
}
