import Foundation
import Logging

extension Logger {
  /// A test's logger: quiet (critical only) so expected failures do not fill the output, unless
  /// `AWFULBOT_TEST_LOG` names a level (`AWFULBOT_TEST_LOG=debug swift test …`).
  package static func quiet(_ label: String = "awfulbot.test") -> Logger {
    var logger = Logger(label: label)
    logger.logLevel =
      ProcessInfo.processInfo.environment["AWFULBOT_TEST_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
    return logger
  }

  /// A logger at `trace` whose every entry lands in `capture`.
  package static func capturing(into capture: LogCapture, label: String = "awfulbot.test") -> Logger {
    var logger = Logger(label: label) { _ in CapturingLogHandler(capture: capture) }
    logger.logLevel = .trace
    return logger
  }
}
