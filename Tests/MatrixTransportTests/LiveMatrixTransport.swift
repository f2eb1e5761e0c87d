import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import Logging
import MatrixTransport
import Synchronization
import Testing

/// The Matrix transport alone, signed in on the test Synapse as a fresh account and run for the length of a test,
/// with everything it tells the engine recorded: the transport's own behaviour against a real homeserver, without
/// the engine deciding what to do with it.
final class LiveMatrixTransport: Sendable {
  let account: MatrixHuman
  let transport: MatrixTransport
  private let recorded = Mutex<[ChatEvent]>([])

  var userID: String { account.userID }
  var events: [ChatEvent] { recorded.withLock { $0 } }

  private init(account: MatrixHuman, encrypts: Bool) {
    self.account = account
    transport = MatrixTransport(
      configuration: MatrixTransportConfiguration(
        homeserver: SynapseEnvironment.url!, userID: account.userID, password: account.password,
        allowedInviters: ["localhost"], syncTimeoutSeconds: 2, pickleKey: encrypts ? "test pickle key" : nil),
      stateStore: InMemoryTransportStateStore(),
      retryPolicy: MatrixRetryPolicy(backoffBase: .milliseconds(200), maximumBackoff: .seconds(2)),
      logger: .quiet())
  }

  /// Runs `body` with a started transport (signed in and synced once, with its own encrypting, cross-signed device
  /// when `encrypts`), then shuts it down.
  static func with<T>(encrypts: Bool = false, _ body: (LiveMatrixTransport) async throws -> T) async throws -> T {
    let bot = LiveMatrixTransport(account: try await MatrixHuman.register("bot"), encrypts: encrypts)
    let transport = bot.transport
    let collector = Task {
      for await event in transport.events { bot.recorded.withLock { $0.append(event) } }
    }
    defer { collector.cancel() }
    return try await withRunningServices([transport]) {
      try await waitUntil("the transport connected", timeout: .seconds(60), every: .milliseconds(50)) {
        if case .stopped(let reason) = transport.status {
          throw MatrixHuman.HumanError(description: "transport stopped: \(reason)")
        }
        if case .connected = transport.status { return true }
        return false
      }
      return try await body(bot)
    }
  }

  func waitUntilJoined(_ room: String) async throws {
    try await waitUntil("the bot joined \(room)", every: .milliseconds(50)) { transport.joinedRooms.contains(room) }
  }

  /// The message with this event id once the transport has handed it on.
  func message(withID id: String, timeout: Duration = .seconds(20)) async throws -> IncomingMessage {
    try await first(timeout: timeout, "the message \(id)") { event in
      if case .message(let message) = event, message.messageID == id { message } else { nil }
    }
  }

  /// The reaction with this event id once the transport has handed it on.
  func reaction(withID id: String, timeout: Duration = .seconds(20)) async throws -> IncomingReaction {
    try await first(timeout: timeout, "the reaction \(id)") { event in
      if case .reaction(let reaction) = event, reaction.reactionID == id { reaction } else { nil }
    }
  }

  private func first<T>(timeout: Duration, _ what: String, _ match: (ChatEvent) -> T?) async throws -> T {
    var found: T?
    try await waitUntil(what, timeout: timeout, every: .milliseconds(50)) {
      found = events.lazy.compactMap(match).first
      return found != nil
    }
    return found!
  }
}
