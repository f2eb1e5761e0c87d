import AwfulBotTestKit
import ChatBridge
import Foundation
import Synchronization
import Testing

@testable import BotCore

/// A transport that fails the first sends with a retryable error, then accepts; messages arrive from a stream.
final class CommandFlakyTransport: ChatTransport {
  let name = CommandHarness.transport
  let capabilities = ChatCapabilities.plainText
  let events: AsyncStream<ChatEvent>
  let continuation: AsyncStream<ChatEvent>.Continuation
  private let state = Mutex<(failures: Int, sent: [(String, OutgoingMessage)])>((0, []))

  init(failures: Int) {
    (events, continuation) = AsyncStream.makeStream(of: ChatEvent.self)
    state.withLock { $0.failures = failures }
  }

  var sent: [(String, OutgoingMessage)] { state.withLock { $0.sent } }

  func run() async throws {}

  func send(_ message: OutgoingMessage, to room: String, idempotencyKey: String) async throws -> DeliveryReceipt {
    try state.withLock { state in
      if state.failures > 0 {
        state.failures -= 1
        throw ChatSendError.retryable(reason: "rate limited", after: .milliseconds(1))
      }
      state.sent.append((idempotencyKey, message))
      return DeliveryReceipt(id: "\(state.sent.count)")
    }
  }
}

@Suite("Chat event service")
struct CommandServiceTests {
  @Test("answers every command in order through the delivery, retrying temporary send failures")
  func service() async throws {
    let bot = try await CommandHarness()
    let transport = CommandFlakyTransport(failures: 2)
    let service = ChatEventService(
      transport: transport, router: bot.router, deliver: ChatEventService.directDelivery(via: transport))
    transport.continuation.yield(.message(bot.message("!subscribe announcements")))
    transport.continuation.yield(.message(bot.message("hello, no command here")))
    transport.continuation.yield(.message(bot.message("!subscriptions")))
    transport.continuation.finish()
    try await service.run()
    let sent = transport.sent
    #expect(sent.count == 2)
    #expect(sent.first?.1.text == "Subscribed this room to announcements.")
    #expect(sent.last?.1.text.contains("• announcements") == true)
    #expect(sent.allSatisfy { $0.0.hasPrefix("reply:test:!room:") && $0.1.kind == .reply })
  }
}
