import Foundation
import Logging
import MatrixTransport

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
  /// - Parameter pictures: the bot shows pictures in rooms (from the emulator on loopback); off, they stay links.
  func makeBot(database name: String, runsDispatcher: Bool, encrypted: Bool = false, pictures: Bool = false) throws
    -> MatrixBenchBot
  {
    try MatrixBenchBot(
      forumURL: forum.url, homeserver: homeserver, account: bot, owner: owner.account.userID,
      databasePath: directory.appendingPathComponent("\(name).sqlite").path, runsDispatcher: runsDispatcher,
      pickleKey: encrypted ? "awfulbot-bench pickle key" : nil,
      images: MatrixImageSettings(enabled: pictures, perHour: 100_000, allowPrivateNetworks: true), logger: logger)
  }

  /// A room the owner creates with the bot invited (end-to-end encrypted when asked), once the bot has joined it.
  func joinedRoom(_ name: String, bot: MatrixBenchBot, encrypted: Bool = false) async throws -> String {
    let room = try await owner.createRoom(name: name, inviting: self.bot.userID, encrypted: encrypted)
    try await bot.waitUntilJoined(room)
    return room
  }

  /// The content of the newest message in `room`, encoded: what the plain sender sends, so that both senders ask the
  /// same of the homeserver.
  func latestContent(in room: String) async throws -> [UInt8] {
    let content = try await owner.client.latestMessageContent(token: owner.account.accessToken, roomID: room)
    return Array(try JSONEncoder().encode(content))
  }

  /// "1 room", "4 rooms": how the comparisons name a room count.
  static func label(rooms: Int) -> String { rooms == 1 ? "1 room" : "\(rooms) rooms" }

  /// The median of `values` (the upper one of an even count), 0 for none.
  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
  }
}
