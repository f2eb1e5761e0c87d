import Logging
import ServiceLifecycle

/// Seeds, in the background, the configured rooms whose ids could not be found at start (a Matrix alias while the
/// homeserver is down or slow), so their subscriptions and private-message alerts begin once that service answers:
/// no restart needed, and the other chat services never wait for it. Tries again after `initialDelay`, doubling
/// the pause up to `maximumDelay` while nothing resolves; ends when every room is seeded.
struct ConfiguredRoomRetry: Service {
  let application: BotApplication
  var initialDelay: Duration
  var maximumDelay: Duration = .seconds(300)

  func run() async throws {
    var delay = initialDelay
    while true {
      let pending = application.pendingRooms.withLock { $0 }
      guard !pending.isEmpty else { return }
      let pause = delay
      do {
        try await cancelWhenGracefulShutdown { try await Task.sleep(for: pause) }
      } catch {
        return
      }
      let remaining: [ConfiguredRoom]
      do {
        remaining = try await application.seed(pending, waitingAtMost: .seconds(30), logFailures: false)
      } catch {
        // The store failed; the rooms stay pending. Ending here would end the bot.
        application.logger.error("config rooms not seeded", metadata: ["error": "\(error)"])
        remaining = pending
      }
      application.pendingRooms.withLock { $0 = remaining }
      delay = remaining.count < pending.count ? initialDelay : min(delay * 2, maximumDelay)
    }
  }
}
