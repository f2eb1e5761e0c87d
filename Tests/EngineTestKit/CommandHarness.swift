import AwfulBotTestKit
import BotCore
import BotStore
import ChatBridge
import Foundation

/// The command router over the real engine and an in-memory store, with the in-process forum.
package struct CommandHarness {
  package static let transport = "test"
  package let forum: TestForum
  package let engine: BotEngine
  package let router: CommandRouter
  package let clock: TestClock

  /// - Parameters:
  ///   - namedRooms: the rooms the config would name (room power counts for the account there); by default the
  ///     harness's rooms `!room` and `!other`, as a bot's configured rooms.
  ///   - prefix: the commands' prefix (`commands.prefix`).
  ///   - budget: the command budget's limits (`commands.*PerMinute`).
  ///   - configure: changes to the engine's configuration (the caps per room).
  ///   - forumNames: the forum usernames the config gives chat users (`roles[].forumName`), by transport and user id.
  package init(
    forum: TestForum? = nil, grants: [String: [String: Role]] = [:], namedRooms: [String] = ["!room", "!other"],
    forumNames: [String: [String: String]] = [:],
    prefix: String = "!", budget: CommandBudget.Limits = .standard,
    configure: (inout EngineConfiguration) -> Void = { _ in }
  ) async throws {
    let clock = TestClock(Date(timeIntervalSince1970: 1_750_000_000))
    let forum = if let forum { forum } else { TestForum.seeded(clock: clock) }
    var configuration = EngineConfiguration()
    configure(&configuration)
    let engine = BotEngine(
      database: try BotDatabase(), forum: forum, transports: [Self.transport: .plainText],
      configuration: configuration, now: { clock.now() })
    self.forum = forum
    self.engine = engine
    self.clock = clock
    self.router = CommandRouter(
      parser: CommandParser(prefix: prefix, botNames: ["awfulbot"]),
      permissions: SharedPermissions(
        PermissionPolicy(
          grants: grants, namedRooms: Set(namedRooms.map { RoomRef(transport: Self.transport, room: $0) }),
          forumNames: forumNames)),
      forum: forum, engine: engine,
      composer: MessageComposer(baseURL: forum.baseURL), budget: CommandBudget(limits: budget), now: { clock.now() })
  }

  package var room: RoomRef { RoomRef(transport: Self.transport, room: "!room") }

  package func message(_ text: String, role: Role? = .admin, sender: String = "alice", room: String = "!room")
    -> IncomingMessage
  {
    IncomingMessage(
      transport: Self.transport, room: room, senderID: "@\(sender):example.org", senderName: sender, text: text,
      messageID: "$event-\(text.count)", transportRole: role)
  }

  /// The plain-text answer, or nil when the bot says nothing.
  package func send(_ text: String, role: Role? = .admin, sender: String = "alice", room: String = "!room") async
    -> String?
  {
    await router.handle(message(text, role: role, sender: sender, room: room), capabilities: .plainText)?.text
  }

  /// The answer, failing the test when there is none.
  package func say(_ text: String, role: Role? = .admin, sender: String = "alice", room: String = "!room") async
    -> String
  {
    await send(text, role: role, sender: sender, room: room) ?? "<no answer>"
  }
}
