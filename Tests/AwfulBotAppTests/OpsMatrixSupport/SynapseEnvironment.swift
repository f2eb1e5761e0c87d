import Foundation
import Testing

/// The homeserver `scripts/with-synapse` (or `scripts/test`) started, from the environment. Integration suites are
/// enabled only when it is there, so `swift test` alone still passes. AwfulBotAppTests compiles this file too (a
/// link in `Tests/AwfulBotAppTests/OpsMatrixSupport/`, as are `MatrixHuman` and `HMACSHA1`): test targets cannot
/// depend on each other, and one copy is better than two.
enum SynapseEnvironment {
  static var url: URL? {
    ProcessInfo.processInfo.environment["AWFULBOT_SYNAPSE_URL"].flatMap(URL.init(string:))
  }

  static var secret: String? { ProcessInfo.processInfo.environment["AWFULBOT_SYNAPSE_SECRET"] }

  /// The server's pid file; killing that pid makes the script's supervisor restart the server.
  static var pidFile: String? { ProcessInfo.processInfo.environment["AWFULBOT_SYNAPSE_PIDFILE"] }

  static var isAvailable: Bool { url != nil && secret != nil }

  static let skipReason: Comment =
    "AWFULBOT_SYNAPSE_URL is not set: run the tests under scripts/with-synapse (e.g. `scripts/with-synapse swift test --filter \"MatrixTransportTests|AwfulBotAppTests\"`) for the Matrix integration tests"
}
