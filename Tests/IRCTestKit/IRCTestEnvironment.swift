import Foundation

/// The IRC network `scripts/with-ircd` (or `scripts/test`) started, read from the environment. Lives in the IRC test
/// kit, shared by every suite that needs the network.
package struct IRCTestEnvironment: Sendable {
  package let host: String
  package let port: Int
  package let tlsPort: Int
  package let caFile: String
  package let account: String
  package let password: String
  package let testerAccount: String
  package let testerPassword: String
  package let restartScript: String
  package let controlDirectory: String
  package let clientCertificate: String
  package let clientKey: String

  package static let current: IRCTestEnvironment? = {
    let env = ProcessInfo.processInfo.environment
    guard let host = env["AWFULBOT_IRC_HOST"], let port = env["AWFULBOT_IRC_PORT"].flatMap(Int.init),
      let tlsPort = env["AWFULBOT_IRC_TLS_PORT"].flatMap(Int.init), let caFile = env["AWFULBOT_IRC_CA_FILE"],
      let account = env["AWFULBOT_IRC_ACCOUNT"], let password = env["AWFULBOT_IRC_PASSWORD"]
    else { return nil }
    return IRCTestEnvironment(
      host: host, port: port, tlsPort: tlsPort, caFile: caFile, account: account, password: password,
      testerAccount: env["AWFULBOT_IRC_TESTER_ACCOUNT"] ?? "",
      testerPassword: env["AWFULBOT_IRC_TESTER_PASSWORD"] ?? "",
      restartScript: env["AWFULBOT_IRC_RESTART"] ?? "", controlDirectory: env["AWFULBOT_IRC_CONTROL_DIR"] ?? "",
      clientCertificate: env["AWFULBOT_IRC_CLIENT_CERT"] ?? "", clientKey: env["AWFULBOT_IRC_CLIENT_KEY"] ?? "")
  }()

  package static var available: Bool { current != nil }

  /// Whether tests may restart or freeze the server: only in a run of their own (`AWFULBOT_IRC_RESTART_TESTS=1`,
  /// which `scripts/test` sets for a `swift test` after the others), since every other suite on the same network
  /// would lose its connection.
  package static var restartsAllowed: Bool {
    available && ProcessInfo.processInfo.environment["AWFULBOT_IRC_RESTART_TESTS"] == "1"
  }

  package static var required: IRCTestEnvironment {
    get throws {
      guard let current else { throw SkipInfo() }
      return current
    }
  }

  package struct SkipInfo: Error, CustomStringConvertible {
    package var description: String { "AWFULBOT_IRC_HOST is not set: run under scripts/with-ircd" }
  }

  /// A name no other test (or earlier run) uses: `prefix` plus random letters.
  package static func unique(_ prefix: String, length: Int = 6) -> String {
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    return prefix + String((0..<length).map { _ in letters.randomElement()! })
  }
}
