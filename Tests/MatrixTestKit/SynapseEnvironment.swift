import Foundation
import Testing

/// The homeserver `scripts/with-synapse` (or `scripts/test`) started, from the environment. The suites against it are
/// enabled only when it is there, so `swift test` alone still passes. Lives in the Matrix test kit, shared by every
/// suite that needs the homeserver.
package enum SynapseEnvironment {
  package static var url: URL? {
    ProcessInfo.processInfo.environment["AWFULBOT_SYNAPSE_URL"].flatMap(URL.init(string:))
  }

  package static var secret: String? { ProcessInfo.processInfo.environment["AWFULBOT_SYNAPSE_SECRET"] }

  /// The server's pid file; killing that pid makes the script's supervisor restart the server.
  package static var pidFile: String? { ProcessInfo.processInfo.environment["AWFULBOT_SYNAPSE_PIDFILE"] }

  package static var isAvailable: Bool { url != nil && secret != nil }

  /// Whether a test may restart the homeserver: only in a run of its own (`AWFULBOT_SYNAPSE_RESTART_TESTS=1`, which
  /// `scripts/test` sets for a second `swift test` after the others), since every other suite on the same server
  /// would see it go away.
  package static var restartsAllowed: Bool {
    isAvailable && pidFile != nil && ProcessInfo.processInfo.environment["AWFULBOT_SYNAPSE_RESTART_TESTS"] == "1"
  }

  package static let skipReason: Comment =
    "AWFULBOT_SYNAPSE_URL is not set: run the tests under scripts/with-synapse (e.g. `scripts/with-synapse swift test --filter AcceptanceTests.Matrix`) for the Matrix acceptance tests"
}
