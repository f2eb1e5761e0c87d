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

  /// - Parameter encrypted: the bot gets a pickle key, so it reads and writes encrypted rooms.
  func makeBot(database name: String, runsDispatcher: Bool, encrypted: Bool = false) throws -> MatrixBenchBot {
    try MatrixBenchBot(
      forumURL: forum.url, homeserver: homeserver, account: bot, owner: owner.account.userID,
      databasePath: directory.appendingPathComponent("\(name).sqlite").path, runsDispatcher: runsDispatcher,
      pickleKey: encrypted ? "awfulbot-bench pickle key" : nil, logger: logger)
  }

  /// A room the owner creates with the bot invited (end-to-end encrypted when asked), once the bot has joined it.
  func joinedRoom(_ name: String, bot: MatrixBenchBot, encrypted: Bool = false) async throws -> String {
    let room = try await owner.createRoom(name: name, inviting: self.bot.userID, encrypted: encrypted)
    try await bot.waitUntilJoined(room)
    return room
  }
}
