import AwfulBotTestKit
import ChatBridge
import AwfulScraping
import BotStore
import Foundation
import Synchronization

@testable import BotCore

/// A clock tests move by hand.
final class CommandTestClock: Sendable {
  private let current = Mutex(Date(timeIntervalSince1970: 1_750_000_000))
  var now: Date { current.withLock { $0 } }
  func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// The command router over the real engine and an in-memory store, with the in-process forum.
struct CommandHarness {
  static let transport = "test"
  let forum: CommandTestForum
  let engine: BotEngine
  let router: CommandRouter
  let clock: CommandTestClock

  init(forum: CommandTestForum? = nil, grants: [String: [String: Role]] = [:]) async throws {
    let forum = if let forum { forum } else { await CommandTestForum.seeded() }
    let clock = CommandTestClock()
    let engine = BotEngine(
      database: try BotDatabase(), forum: forum, transports: [Self.transport: .plainText], now: { clock.now })
    self.forum = forum
    self.engine = engine
    self.clock = clock
    self.router = CommandRouter(
      parser: CommandParser(prefix: "!", botNames: ["awfulbot"]),
      permissions: PermissionPolicy(grants: grants), forum: forum, engine: engine,
      composer: MessageComposer(baseURL: forum.baseURL), now: { clock.now })
  }

  var room: RoomRef { RoomRef(transport: Self.transport, room: "!room") }

  func message(_ text: String, role: Role? = .admin, sender: String = "alice", room: String = "!room")
    -> IncomingMessage
  {
    IncomingMessage(
      transport: Self.transport, room: room, senderID: "@\(sender):example.org", senderName: sender, text: text,
      messageID: "$event-\(text.count)", transportRole: role)
  }

  /// The plain-text answer, or nil when the bot says nothing.
  func send(_ text: String, role: Role? = .admin, sender: String = "alice", room: String = "!room") async
    -> String?
  {
    await router.handle(message(text, role: role, sender: sender, room: room), capabilities: .plainText)?.text
  }

  /// The answer, failing the test when there is none.
  func say(_ text: String, role: Role? = .admin, sender: String = "alice", room: String = "!room") async -> String {
    await send(text, role: role, sender: sender, room: room) ?? "<no answer>"
  }
}
