import AwfulBotEngineTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

@testable import BotCore

@Suite("Chat event service")
struct CommandServiceTests {
  @Test("answers every command in order through the delivery, retrying temporary send failures")
  func service() async throws {
    let bot = try await CommandHarness()
    // Messages arrive from a stream; the first two sends fail with a retryable error, then sends are accepted.
    let (events, incoming) = AsyncStream.makeStream(of: ChatEvent.self)
    let transport = RecordingTransport(name: CommandHarness.transport, events: events)
    let rateLimited = ChatSendError.retryable(reason: "rate limited", after: .milliseconds(1))
    transport.fail(room: bot.room.room, with: [rateLimited, rateLimited])
    let service = ChatEventService(
      transport: transport, router: bot.router, deliver: ChatEventService.directDelivery(via: transport))
    incoming.yield(.message(bot.message("!subscribe announcements")))
    incoming.yield(.message(bot.message("hello, no command here")))
    incoming.yield(.message(bot.message("!subscriptions")))
    incoming.finish()
    try await service.run()
    let sent = transport.sent
    #expect(sent.count == 2)
    #expect(sent.first?.message.text == "Subscribed this room to announcements.")
    #expect(sent.last?.message.text.contains("• announcements") == true)
    #expect(sent.allSatisfy { $0.key.hasPrefix("reply:test:!room:") && $0.message.kind == .reply })
  }
}
