import AwfulBotApp
import AwfulBotIRCTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import Logging
import Testing

/// The test kit's reader of the test network, plus what the ops tests need.
typealias OpsIRCEnvironment = IRCTestEnvironment

extension IRCTestEnvironment {
  static let skipReason: Comment = "AWFULBOT_IRC_HOST is not set: run under scripts/test or scripts/with-ircd"

  /// A nick no other test (or earlier run) uses.
  static func uniqueNick(_ prefix: String = "chk") -> String { unique(prefix) }

  /// The options of an `irc` transport as the config file writes them: plain or TLS (with the run's CA).
  func options(nick: String, tls: Bool, caFile: Bool = true) -> [String: JSONValue] {
    var options: [String: JSONValue] = [
      "server": .string("\(host):\(tls ? tlsPort : port)"), "tls": .bool(tls), "nick": .string(nick),
      "connectTimeoutSeconds": .number(5), "registrationTimeoutSeconds": .number(15),
    ]
    if tls && caFile { options["caFile"] = .string(self.caFile) }
    return options
  }
}

/// What `awfulbot check` reports for one IRC transport with these options.
func probeIRC(
  _ options: [String: JSONValue], name: String = "irc", environment: [String: String] = [:],
  settingsPath: String? = nil
) async throws -> CheckResult {
  var entry = options
  entry["type"] = "irc"
  entry["name"] = .string(name)
  return try await TransportSettings.read(entry, environment: environment).probe(
    context: TransportBuildContext(logger: Logger.quiet(), settingsPath: settingsPath))
}
