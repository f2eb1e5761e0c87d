import AwfulBotApp
import AwfulBotTestKit
import Logging
import ServiceLifecycle

extension BotApplication {
  /// Runs the application's services while `body` runs (as `awfulbot run` does, without signal handlers), then
  /// shuts them down gracefully and waits. The application's own `shutdownAfter` bounds the wait, as it would a
  /// SIGTERM.
  package func whileRunning<T>(logger: Logger = .quiet(), _ body: () async throws -> T) async throws -> T {
    try await withRunningServices(
      [ApplicationService(application: self)], logger: logger, stopWithin: .seconds(120), body)
  }
}

/// `BotApplication.run` as a service, so the surrounding group's graceful shutdown reaches every service.
private struct ApplicationService: Service {
  let application: BotApplication

  func run() async throws {
    try await application.run(shutdownAfter: .seconds(120), signals: [])
  }
}
