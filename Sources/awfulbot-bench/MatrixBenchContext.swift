import Foundation
import Logging

/// What every measurement of `awfulbot-bench matrix` shares: the homeserver, both accounts, the emulator and the
/// folder the bots' databases go in. Each measurement starts a bot of its own on a fresh database.
struct MatrixBenchContext: Sendable {
  let homeserver: URL
  let bot: SynapseAccount
  let owner: MatrixBenchOwner
  let forum: MatrixBenchForum
  let directory: URL
  let logger: Logger

  func makeBot(database name: String, runsDispatcher: Bool) throws -> MatrixBenchBot {
    try MatrixBenchBot(
      forumURL: forum.url, homeserver: homeserver, account: bot, owner: owner.account.userID,
      databasePath: directory.appendingPathComponent("\(name).sqlite").path, runsDispatcher: runsDispatcher,
      logger: logger)
  }

  /// A room the owner creates with the bot invited, once the bot has joined it.
  func joinedRoom(_ name: String, bot: MatrixBenchBot) async throws -> String {
    let room = try await owner.createRoom(name: name, inviting: self.bot.userID)
    try await bot.waitUntilJoined(room)
    return room
  }
}
