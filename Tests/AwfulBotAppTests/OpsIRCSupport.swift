import AwfulBotApp
import BotCore
import Foundation
import Logging
import Testing

/// The IRC network `scripts/test` (or `scripts/with-ircd`) started, read from the environment; nil when it is not
/// running, and the IRC ops suite is skipped with the reason.
struct OpsIRCEnvironment: Sendable {
  let host: String
  let port: Int
  let tlsPort: Int
  let caFile: String
  let account: String
  let password: String

  static let current: OpsIRCEnvironment? = {
    let env = ProcessInfo.processInfo.environment
    guard let host = env["AWFULBOT_IRC_HOST"], let port = env["AWFULBOT_IRC_PORT"].flatMap(Int.init),
      let tlsPort = env["AWFULBOT_IRC_TLS_PORT"].flatMap(Int.init), let caFile = env["AWFULBOT_IRC_CA_FILE"],
      let account = env["AWFULBOT_IRC_ACCOUNT"], let password = env["AWFULBOT_IRC_PASSWORD"]
    else { return nil }
    return OpsIRCEnvironment(
      host: host, port: port, tlsPort: tlsPort, caFile: caFile, account: account, password: password)
  }()

  static let skipReason: Comment = "AWFULBOT_IRC_HOST is not set: run under scripts/test or scripts/with-ircd"

  /// A nick no other test (or earlier run) uses.
  static func uniqueNick(_ prefix: String = "chk") -> String {
    prefix + String((0..<6).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement()! })
  }

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

/// Quiet unless `AWFULBOT_IRC_TEST_LOG` names a level.
let opsIRCLogger: Logger = {
  var logger = Logger(label: "awfulbot.ops.irc.test")
  logger.logLevel =
    ProcessInfo.processInfo.environment["AWFULBOT_IRC_TEST_LOG"].flatMap { Logger.Level(rawValue: $0) } ?? .critical
  return logger
}()

/// What `awfulbot check` reports for one IRC transport with these options.
func probeIRC(
  _ options: [String: JSONValue], name: String = "irc", environment: [String: String] = [:]
) async throws -> CheckResult {
  let probe = try #require(TransportKind.irc.probe, "the irc transport kind can be probed")
  return await probe(
    TransportSettings(type: "irc", name: name, options: options),
    TransportBuildContext(environment: environment, logger: opsIRCLogger))
}
