import AwfulBotTestKit
import BotCore
import Testing

extension BotEngine {
  /// Waits until no outbox row is pending: every relay and answer queued so far was sent and acknowledged by the
  /// chat service (or given up on). With `IRCTestClient.roundTrip()` after it, a test knows everything the bot said
  /// has arrived.
  func waitUntilNothingPending(timeout: Duration = .seconds(30)) async throws {
    try await waitUntil("the outbox has nothing pending", timeout: timeout) {
      try await database.read { try $0.outboxCounts().pending } == 0
    }
  }
}
