import AwfulBotApp
import AwfulBotAppTestKit
import AwfulBotTestKit
import BotCore
import ChatBridge
import Foundation
import Logging
import Testing

/// What a reload tells apart and applies in the process: live sections, live transport keys, keys that need a
/// restart, and a refused config that changes nothing. (The daemon's own SIGHUP handling with IRC channels joined
/// and parted runs in the IRC acceptance suite, against the real binary and the test network; scripts/release-check
/// sends SIGHUP to the release binary.)
@Suite("Configuration reload")
struct ConfigurationReloadTests {
  private static var irc: [String: Any] {
    [
      "type": "irc", "name": "irc", "server": "127.0.0.1:6667", "nick": "awfulbot", "channels": ["#keep", "#drop"],
    ]
  }

  @Test("identical configs: nothing to apply, nothing to restart")
  func identical() throws {
    let config = try OpsConfig.parse()
    #expect(ConfigurationChanges(from: config, to: config).isEmpty)
  }

  @Test("rooms, roles, poll intervals, metrics and private-message rooms are live; the log level needs a restart")
  func liveSections() throws {
    let before = try OpsConfig.parse()
    let after = try OpsConfig.parse([
      "rooms": [["transport": "console", "room": "console", "subscriptions": ["announcements"]]],
      "roles": [["transport": "console", "user": "alice", "role": "admin"]],
      "polling": ["bookmarksSeconds": 120], "metrics": ["enabled": false],
      "privateMessages": ["rooms": [["transport": "console", "room": "console"]]], "logLevel": "debug",
    ])
    let changes = ConfigurationChanges(from: before, to: after)
    #expect(changes.rooms && changes.roles && changes.pollIntervals && changes.metrics)
    #expect(changes.privateMessageRooms)
    #expect(changes.restartKeys == ["logLevel"])
    #expect(changes.summary == ["roles", "polling", "metrics", "rooms", "privateMessages.rooms"])
  }

  @Test("keys that need a restart are named as the file writes them")
  func restartKeysNamed() throws {
    let before = try OpsConfig.parse(["transports": [["type": "console"], Self.irc]])
    var irc = Self.irc
    irc["server"] = "127.0.0.1:6697"
    let after = try OpsConfig.parse([
      "forum": ["username": "bot", "password": "pw", "baseURL": "http://127.0.0.1:1/"],
      "polling": ["replayCap": 5], "privateMessages": ["rooms": [], "excerpt": true],
      "transports": [["type": "console"], irc],
    ])
    let changes = ConfigurationChanges(from: before, to: after)
    #expect(
      changes.restartKeys == [
        "forum.baseURL", "polling.replayCap", "privateMessages.excerpt", "transports[irc].server",
      ])
    #expect(changes.reconfiguredTransports.isEmpty && !changes.pollIntervals)
  }

  @Test("an IRC transport's channels and roles are live; a transport added or removed needs a restart")
  func transportKeys() throws {
    let before = try OpsConfig.parse(["transports": [["type": "console"], Self.irc]])
    var irc = Self.irc
    irc["channels"] = ["#keep", "#new"]
    irc["admins"] = ["alice"]
    let changed = ConfigurationChanges(
      from: before, to: try OpsConfig.parse(["transports": [["type": "console"], irc]]))
    #expect(changed.reconfiguredTransports == ["irc"] && changed.restartKeys.isEmpty)
    let removed = ConfigurationChanges(from: before, to: try OpsConfig.parse())
    #expect(removed.restartKeys == ["transports[irc]"] && removed.reconfiguredTransports.isEmpty)
  }

  @Test("a reload in the running process: roles and intervals change; a broken file changes nothing and is recorded")
  func reloadInProcess() async throws {
    let directory = TestScratch.path("awfulbot-reload")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("awfulbot.json").path
    func write(_ overrides: [String: Any?]) throws {
      try OpsConfig.data(overrides.merging(["metrics": ["enabled": false]]) { first, _ in first })
        .write(to: URL(fileURLWithPath: path))
    }
    try write(["polling": ["bookmarksSeconds": 60]])
    let application = try BotApplication(
      configuration: try AppConfiguration.load(path: path), transports: [RecordingTransport(name: "console")],
      databasePath: directory.appendingPathComponent("db.sqlite").path, logger: .quiet())
    defer { Task { try? await application.client.shutdown() } }
    let reloader = ConfigurationReloader(application: application, path: path, logger: .quiet(), environment: { [:] })
    let first = try #require(application.monitor.configuration)
    #expect(first.path == path && first.refusedAt == nil)
    func aliceRole() -> Role {
      application.permissions.current.role(transport: "console", userID: "alice", transportRole: nil)
    }
    #expect(aliceRole() == .viewer)

    try write([
      "polling": ["bookmarksSeconds": 90, "bookmarksMinimumSeconds": 20],
      "roles": [["transport": "console", "user": "alice", "role": "admin"]],
    ])
    let outcome = await reloader.reload()
    guard case .applied(let changes) = outcome else {
      Issue.record("refused: \(outcome)")
      return
    }
    #expect(changes.roles && changes.pollIntervals && changes.restartKeys.isEmpty)
    #expect(aliceRole() == .admin)
    #expect(application.engine.polling.schedule.current.bookmarks == .seconds(90))
    #expect(application.engine.polling.schedule.current.bookmarksMinimum == .seconds(20))
    let applied = try #require(application.monitor.configuration)
    #expect(applied.checksum != first.checksum && applied.refusedAt == nil)

    try write(["polling": ["bookmarksSeconds": 1], "roles": []])
    guard case .refused(let problems) = await reloader.reload() else {
      Issue.record("a config with bookmarksSeconds 1 was applied")
      return
    }
    #expect(problems == ["polling.bookmarksSeconds: must be at least 5 seconds, got 1.0"])
    #expect(aliceRole() == .admin, "the running roles stay")
    #expect(application.engine.polling.schedule.current.bookmarks == .seconds(90), "the running intervals stay")
    let refused = try #require(application.monitor.configuration)
    #expect(refused.checksum == applied.checksum && refused.refusedProblems == problems)
    #expect(refused.refusedChecksum != nil && refused.refusedChecksum != applied.checksum)
  }
  @Test("an IRC channel taken off the config with users' subscriptions left: the room is paused, and resumed when back")
  func channelRemovedWithSubscriptions() async throws {
    let directory = TestScratch.path("awfulbot-reload-channel")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("awfulbot.json").path
    func write(channels: [String]) throws {
      var irc = Self.irc
      irc["channels"] = channels
      try OpsConfig.data(["metrics": ["enabled": false], "transports": [irc]]).write(to: URL(fileURLWithPath: path))
    }
    try write(channels: ["#keep", "#Drop", "#empty"])
    let configuration = try AppConfiguration.load(path: path)
    let log = LogCapture()
    let context = TransportBuildContext(logger: .quiet())
    // The transport is never started: a reload applies to it all the same, and parts nothing it had not joined.
    let irc = try configuration.transports[0].make(context: context)
    let application = try BotApplication(
      configuration: configuration, transports: [irc],
      databasePath: directory.appendingPathComponent("db.sqlite").path, logger: .quiet())
    defer { Task { try? await application.client.shutdown() } }
    let reloader = ConfigurationReloader(
      application: application, path: path, logger: .capturing(into: log), environment: { [:] })
    let engine = application.engine
    let (drop, keep, empty) = (
      RoomRef(transport: "irc", room: "#drop"), RoomRef(transport: "irc", room: "#keep"),
      RoomRef(transport: "irc", room: "#empty")
    )
    _ = try await engine.subscriptions.subscribe(room: drop, to: .bookmarks, createdBy: "alice")
    _ = try await engine.subscriptions.subscribe(room: keep, to: .bookmarks, createdBy: "alice")
    // The channels the config names are where channel operators act for the forum account.
    try await application.seedRooms()
    #expect(application.permissions.current.namedRooms == [drop, keep, empty])

    try write(channels: ["#keep"])
    guard case .applied = await reloader.reload() else {
      Issue.record("the reload was refused")
      return
    }
    #expect(application.permissions.current.namedRooms == [keep], "a channel taken off is no longer named")
    #expect(
      try await engine.roomSettings.settings(room: drop).isPaused, "posts for the parted channel are held, not queued")
    #expect(try await engine.subscriptions.subscriptions(room: drop).count == 1, "the users' subscription stays")
    #expect(try await !engine.roomSettings.settings(room: keep).isPaused)
    #expect(
      try await !engine.roomSettings.settings(room: empty).isPaused, "a channel with nothing to relay is just left")
    #expect(
      log.messages.filter { $0.hasPrefix("room paused") } == [
        "room paused: the config no longer names it; its subscriptions stay until it is back"
      ])

    // Back in the config (spelled another way): resumed. A room paused by hand is not resumed by a reload.
    _ = try await engine.roomSettings.update(room: keep) { $0.isPaused = true }
    try write(channels: ["#DROP"])
    _ = await reloader.reload()
    #expect(try await !engine.roomSettings.settings(room: drop).isPaused)
    #expect(application.permissions.current.namedRooms == [drop])
    #expect(log.messages.filter { $0 == "room resumed: the config names it again" }.count == 1)
    try write(channels: ["#DROP", "#keep"])
    _ = await reloader.reload()
    #expect(
      try await engine.roomSettings.settings(room: keep).isPaused, "paused by hand before it was removed: stays paused")
  }
}
