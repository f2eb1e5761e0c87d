import AwfulBotMatrixTestKit
import AwfulBotTestKit
import FakeForum
import Foundation
import Logging

/// What outlives one run of the bot in a test: the forum emulator, the bot's Matrix account and the folder holding
/// the bot's database, so a test can stop the bot and start it again ("restart after a crash").
struct MatrixTestWorld: Sendable {
  let forum: FakeForumServer
  let forumURL: URL
  let botAccount: MatrixHuman
  let directory: URL

  var databasePath: String { directory.appendingPathComponent("bot.sqlite").path }
  var forumState: ForumState { forum.state }

  static func make() async throws -> MatrixTestWorld {
    let forum = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo))
    let root = try await forum.start()
    let directory = TestScratch.path("awfulbot-matrix")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let account = try await MatrixHuman.register("bot")
    return MatrixTestWorld(
      forum: forum, forumURL: URL(string: root.absoluteString + "/")!, botAccount: account, directory: directory)
  }

  func tearDown() async {
    await forum.stop()
    try? FileManager.default.removeItem(at: directory)
  }

  /// Runs `body` with a fresh world, tearing it down afterwards whatever happens.
  static func with<T>(_ body: (MatrixTestWorld) async throws -> T) async throws -> T {
    try await using(make(), tearDown: { await $0.tearDown() }, body)
  }
}
