import AwfulBotApp
import AwfulBotAppTestKit
import AwfulBotTestKit
import FakeForum
import Foundation
import Testing

/// `awfulbot check` on what issue 14 added: an account on probation is a warning with its end (reading works), a
/// private-message room is checked for members beyond the admins, and the config names a wrong room's key.
@Suite("ops: check, probation and private-message rooms")
struct OpsPrivateMessageCheckTests {
  let directory: URL

  init() throws {
    directory = TestScratch.path("awfulbot-ops-pm")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  func writeConfig(forum: URL, extra: [String: Any] = [:]) throws -> String {
    var object: [String: Any] = [
      "forum": [
        "baseURL": forum.absoluteString, "username": FakeForumSeed.botUsername, "password": ["env": "CHECK_PW"],
      ],
      "dataDirectory": directory.appendingPathComponent("data").path,
      "transports": [["type": "console"]],
      "metrics": ["enabled": false],
    ]
    object.merge(extra) { _, new in new }
    return try OpsConfig.temporaryFile(JSONSerialization.data(withJSONObject: object), mode: 0o600)
  }

  @Test("probation: the login passes and a warning names the end; the console PM room passes the privacy check")
  func probationAndConsoleRoom() async throws {
    let forum = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo, pageNav: .new))
    let baseURL = try await forum.start()
    // 2030-06-25 13:50 in the forum's time (US Central, UTC-5 in June).
    await forum.state.setProbation(until: Date(timeIntervalSince1970: 1_908_643_800))
    let path = try writeConfig(
      forum: baseURL,
      extra: ["privateMessages": ["rooms": [["transport": "console", "room": "console"]]], "chatTimeZone": "UTC"])
    let results = await ConfigurationCheck(
      configurationPath: path, environment: ["CHECK_PW": FakeForumSeed.botPassword]
    ).run()
    await forum.stop()
    #expect(results.first { $0.name == "forum login" }?.outcome == .pass)
    let probation = try #require(results.first { $0.name == "forum account" })
    #expect(probation.outcome == .warn)
    #expect(
      probation.detail
        == "on probation until 2030-06-25 18:50 UTC: the bot reads and relays as usual, but reply and pmreply are "
        + "refused until it ends")
    let room = try #require(results.first { $0.name == "private messages to console console" })
    #expect(room.outcome == .pass && room.detail == "only configured admins are in the room")
  }

  @Test("a private-message room on a transport that is not configured is a config error naming the key")
  func unknownTransport() throws {
    let problems = OpsConfig.problems([
      "privateMessages": ["rooms": [["transport": "matrix", "room": "#pms:example.org"], "#loose"], "excerpt": "yes"]
    ])
    #expect(problems.contains("privateMessages.rooms[0].transport: no transport named \"matrix\""))
    #expect(problems.contains { $0.hasPrefix("privateMessages.rooms[1]: expected an object") })
    #expect(problems.contains("privateMessages.excerpt: expected true or false, got a string"))
  }
}
