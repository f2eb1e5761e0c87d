import ChatBridge
import ForumModel
import Foundation

/// Everything a handler may use: who asked where, the forum, the engine's parts (each as the narrow protocol its
/// handlers need, so a handler's test can fake just that part), the composer and the clock.
package struct CommandContext: Sendable {
  package var message: IncomingMessage
  package var room: RoomRef
  /// The sender's role in room scope: what they may change in this room.
  package var role: Role
  /// The sender's role in account scope: what they may do as or to the forum account (`PermissionPolicy`).
  package var accountRole: Role
  /// Whether the config names this room, so that room power counts for the account here.
  package var roomIsNamed: Bool = false
  /// The sender's forum username as the config gives it (`roles[].forumName`): what "your own name" means to `alert`.
  package var forumName: String?
  package var capabilities: ChatCapabilities
  package var forum: any Forum
  /// What rooms follow: subscriptions and watched threads.
  package var subscriptions: any SubscriptionsEngine
  /// The bot account's bookmarks on the forum.
  package var bookmarks: any BookmarksEngine
  package var roomSettings: any RoomSettingsEngine
  package var alerts: any AlertsEngine
  /// `status` and `why`.
  package var statusReports: any StatusEngine
  package var undo: any UndoEngine
  package var privateMessageRooms: any PrivateMessageRoomsEngine
  /// Which of the bot's messages an answer points at (replies to relays).
  package var relayMap: any RelayMapEngine
  package var composer: MessageComposer
  package var now: Date
  package var pendingReplies: PendingReplies
  /// The command prefix, for usage lines and hints.
  package var prefix: String
  /// Every command, for `help`.
  package var commands: [CommandSpec]
  /// How the answer goes out (an edit of an earlier answer).
  package var answer = AnswerOptions()
  /// Each user's searches and each room's last search (`search`, `search more`); the router's, shared by every
  /// transport.
  package var searches = SearchBook(budget: CommandBudget())
  /// Each room's last rap sheet (`lepers`, `lepers more`); the router's.
  package var rapSheets = RapSheetBook()

  package var links: ForumLinks { composer.links }

  /// Who to record as the author of a change (`transport:user`), for `why`, undo and logs.
  package var userID: String { message.senderID }

  /// The thread id a thread argument names; post links are looked up on the forum.
  package func threadID(from argument: String) async throws -> String {
    switch ThreadReference.parse(argument, baseURL: forum.baseURL) {
    case .failure(let error):
      throw CommandError.failed(error.description)
    case .success(.thread(let id)), .success(.post(_, threadID: let id?)):
      return id
    case .success(.post(let postID, threadID: nil)):
      return try await forum.locatePost(postID: postID).threadID
    }
  }

  /// The forum an argument names: an id, or a case-insensitive name (exact match first, then substring).
  package func forumNode(from argument: String) async throws -> ForumNode {
    let forums = ForumDirectory(index: try await forum.forumIndex())
    switch forums.match(argument) {
    case .found(let node):
      return node
    case .none:
      if argument.allSatisfy(\.isNumber) {
        throw CommandError.failed("No forum has the id \(argument); \(prefix)forums lists them.")
      }
      throw CommandError.failed("No forum matches “\(argument)”; try \(prefix)forums \(argument.prefix(12)).")
    case .ambiguous(let nodes):
      let names = nodes.prefix(5).map { "\($0.title) (\($0.id))" }.joined(separator: ", ")
      let more = nodes.count > 5 ? " and \(nodes.count - 5) more" : ""
      throw CommandError.failed("“\(argument)” matches several forums: \(names)\(more). Say which (an id works).")
    }
  }
}

extension CommandContext {
  /// A context handing out `engine`'s parts (the router's: the real engine). The parts that reach the forum do it
  /// through `forum`, the one the command may use (`CommandRouter.forum(for:)`: within the commands' budget), so a
  /// `watch`, 👀, `subscribe`, its backfill or an `undo` spends the same share of requests as `latest`.
  init(
    message: IncomingMessage, room: RoomRef, role: Role, accountRole: Role, capabilities: ChatCapabilities,
    forum: any Forum, engine: BotEngine, composer: MessageComposer, now: Date, pendingReplies: PendingReplies,
    prefix: String,
    commands: [CommandSpec]
  ) {
    self.init(
      message: message, room: room, role: role, accountRole: accountRole, capabilities: capabilities, forum: forum,
      subscriptions: engine.subscriptions.forCommands(through: forum), bookmarks: engine.bookmarks.through(forum),
      roomSettings: engine.roomSettings, alerts: engine.alerts, statusReports: engine.statusReports,
      undo: engine.undo.forCommands(through: forum),
      privateMessageRooms: engine.privateMessageRooms, relayMap: engine.relayMap, composer: composer, now: now,
      pendingReplies: pendingReplies,
      prefix: prefix, commands: commands)
  }
}
