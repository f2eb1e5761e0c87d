import AwfulBotApp
import AwfulBotAppTestKit
import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import FakeForum
import Foundation
import Logging
import MatrixTransport
import Testing

/// The whole bot from a JSON configuration with a `"type": "matrix"` transport: the forum emulator on loopback, a
/// fresh bot account and room owner on the test Synapse (`OpsMatrixSupport/` links the Matrix suite's
/// `MatrixHuman`), and `BotApplication` built the way `awfulbot run` builds it.
struct OpsMatrixHarness: Sendable {
  let forum: FakeForumServer
  let forumURL: URL
  let bot: MatrixHuman
  let owner: MatrixHuman
  /// Created by the owner with the bot invited; named in the config's transport `rooms` and in `rooms`.
  let room: String
  /// The room's alias (`#opsroom_…:localhost`).
  let alias: String
  let directory: URL

  static let tokenVariable = "OPS_MATRIX_TOKEN"

  static func make() async throws -> OpsMatrixHarness {
    let forum = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo))
    let root = try await forum.start()
    let bot = try await MatrixHuman.register("opsbot")
    let owner = try await MatrixHuman.register("opsowner")
    let aliasName = "opsroom_\(UUID().uuidString.prefix(8).lowercased())"
    let room = try await owner.createRoom(name: "ops matrix", invite: [bot.userID], alias: aliasName)
    let directory = TestScratch.path("awfulbot-ops-matrix")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return OpsMatrixHarness(
      forum: forum, forumURL: URL(string: root.absoluteString + "/")!, bot: bot, owner: owner, room: room,
      alias: "#\(aliasName):localhost", directory: directory)
  }

  /// Runs `body` with a fresh harness and tears it down whatever happens.
  static func with(_ body: (OpsMatrixHarness) async throws -> Void) async throws {
    try await using(make(), tearDown: { await $0.tearDown() }, body)
  }

  func tearDown() async {
    await forum.stop()
    try? FileManager.default.removeItem(at: directory)
  }

  /// What the bot's process environment would hold: the forum password and the Matrix token.
  var environment: [String: String] {
    ["OPS_FORUM_PASSWORD": FakeForumSeed.botPassword, Self.tokenVariable: bot.accessToken]
  }

  /// The configuration file's text: one Matrix transport (secret from the environment), the room seeded with the
  /// bookmarks subscription, metrics off.
  /// `matrix` replaces keys of the transport (nil removes one); `roomName` is how the config names the room (its id
  /// by default, or its alias).
  func configurationJSON(matrix: [String: Any?] = [:], roomName: String? = nil) throws -> Data {
    let roomName = roomName ?? room
    var transport: [String: Any] = [
      "type": "matrix", "name": "matrix", "homeserver": SynapseEnvironment.url!.absoluteString,
      "userID": bot.userID, "accessToken": ["env": Self.tokenVariable], "rooms": [roomName],
      "allowedInviters": ["localhost"], "syncTimeoutSeconds": 2,
    ]
    for (key, value) in matrix { transport[key] = value }
    let object: [String: Any] = [
      "forum": [
        "baseURL": forumURL.absoluteString, "username": FakeForumSeed.botUsername,
        "password": ["env": "OPS_FORUM_PASSWORD"], "timeZone": "America/Chicago", "requestSpacingSeconds": 0,
      ],
      "dataDirectory": directory.appendingPathComponent("data").path,
      "transports": [transport],
      "rooms": [["transport": "matrix", "room": roomName, "subscriptions": ["bookmarks"]]],
      "metrics": ["enabled": false],
    ]
    return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
  }

  /// The configuration as `awfulbot run` reads it, with a poll interval below what a config may say (speed).
  /// `environment` is the process environment the secrets are read from (the harness's own by default).
  func configuration(
    roomName: String? = nil, matrix: [String: Any?] = [:], environment: [String: String]? = nil
  ) throws -> AppConfiguration {
    var configuration = try AppConfiguration.parse(
      data: configurationJSON(matrix: matrix, roomName: roomName), environment: environment ?? self.environment)
    configuration.polling = .init(bookmarksSeconds: 0.5, announcementsSeconds: 600, forumsSeconds: 600)
    return configuration
  }

  /// `BotApplication` with its transports built from the configuration over its own database.
  func application(roomName: String? = nil, matrix: [String: Any?] = [:]) throws -> BotApplication {
    try BotApplication(
      configuration: configuration(roomName: roomName, matrix: matrix),
      transportContext: TransportBuildContext(logger: Logger.quiet()),
      logger: Logger.quiet(), environment: environment)
  }

  /// Seeds the rooms, runs every service while `body` runs, then shuts the group down gracefully and waits.
  func running(_ application: BotApplication, _ body: () async throws -> Void) async throws {
    try await application.seedRooms()
    try await application.whileRunning(body)
  }
}

extension BotApplication {
  var matrixTransport: MatrixTransport {
    get throws { try #require(transports.first as? MatrixTransport) }
  }
}
