import AwfulBotApp
import AwfulBotTestKit
import ChatBridge
import Foundation
import MatrixTransport
import Testing

/// The deployment files agree with the code: configs they ship load, the env example covers the secrets, the unit
/// keeps the exit-status contract. (Docker cannot run here; `scripts/release-check` covers the binary itself.)
@Suite("ops: deployment files")
struct OpsDeployTests {
  static let repository = Repository.root

  func read(_ path: String) throws -> String {
    try String(contentsOf: Self.repository.appendingPathComponent(path), encoding: .utf8)
  }

  /// `NAME=value` lines of an env file.
  func environment(_ path: String) throws -> [String: String] {
    var values: [String: String] = [:]
    for line in try read(path).split(separator: "\n") where !line.hasPrefix("#") {
      let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
      if parts.count == 2 { values[parts[0]] = parts[1] }
    }
    return values
  }

  @Test("the env example supplies every secret config.example.json needs")
  func environmentExample() throws {
    let environment = try environment("deploy/awfulbot.env.example")
    let path = Self.repository.appendingPathComponent("config.example.json").path
    #expect(throws: Never.self) { try AppConfiguration.load(path: path, environment: environment) }
  }

  @Test("the compose config loads with the two secrets the compose file documents")
  func composeConfig() throws {
    let path = Self.repository.appendingPathComponent("deploy/compose/awfulbot.json").path
    let configuration = try AppConfiguration.load(
      path: path, environment: ["AWFULBOT_FORUM_PASSWORD": "pw", "AWFULBOT_MATRIX_PASSWORD": "pw"])
    #expect(configuration.dataDirectory == "/var/lib/awfulbot")
    #expect(configuration.metrics?.address == HostPort(host: "0.0.0.0", port: 9464))
    #expect(
      configuration.transports.first?.configuration(of: MatrixPlugin.self)?.homeserver.absoluteString
        == "http://synapse:8008",
      "the compose service name")
    let compose = try read("deploy/docker-compose.yml")
    #expect(compose.contains("./compose/awfulbot.json:/etc/awfulbot/config.json:ro"))
    #expect(compose.contains("awfulbot-data:/var/lib/awfulbot"))
  }

  @Test("the systemd unit runs the documented command line and does not restart on a config error")
  func systemdUnit() throws {
    let unit = try read("deploy/awfulbot.service")
    for line in [
      "ExecStart=/usr/local/bin/awfulbot run --config /etc/awfulbot/config.json",
      "EnvironmentFile=/etc/awfulbot/awfulbot.env", "StateDirectory=awfulbot", "User=awfulbot",
      "Restart=on-failure", "RestartPreventExitStatus=\(ConfigurationError.exitCode)", "NoNewPrivileges=yes",
      "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes", "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX",
    ] {
      #expect(unit.split(separator: "\n").contains(Substring(line)), "\(line)")
    }
    let dockerfile = try read("deploy/Dockerfile")
    #expect(dockerfile.contains("--static-swift-stdlib"))
    #expect(dockerfile.contains("HEALTHCHECK"))
    #expect(dockerfile.contains("USER awfulbot"))
    #expect(dockerfile.contains("VOLUME [\"/var/lib/awfulbot\"]"))
  }
}
