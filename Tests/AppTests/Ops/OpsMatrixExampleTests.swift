import AwfulBotApp
import AwfulBotTestKit
import Foundation
import MatrixTransport
import Testing

/// The example configuration's Matrix transport: it decodes into the transport's configuration, and `check`
/// reports on it (no homeserver needed).
@Suite("ops: Matrix in config.example.json")
struct OpsMatrixExampleTests {
  static let repository = Repository.root

  static func exampleMatrix() throws -> TransportSettings {
    let configuration = try AppConfiguration.load(
      path: repository.appendingPathComponent("config.example.json").path,
      environment: [
        "AWFULBOT_FORUM_PASSWORD": "pw", "AWFULBOT_MATRIX_ACCESS_TOKEN": "example-token",
        "AWFULBOT_IRC_SASL_PASSWORD": "sasl", "AWFULBOT_IRC_RIZON_NICKSERV_PASSWORD": "nickserv",
        "AWFULBOT_DISCORD_GENERAL_WEBHOOK": "https://discord.com/api/webhooks/1/example",
      ])
    return try #require(configuration.transports.first { $0.type == .matrix })
  }

  @Test("the example's matrix transport decodes into MatrixTransportConfiguration")
  func decodes() throws {
    let settings = try Self.exampleMatrix()
    let configuration = try #require(settings.configuration(of: MatrixPlugin.self))
    #expect(configuration.name == "matrix")
    #expect(configuration.homeserver.absoluteString == "https://matrix.example.org")
    #expect(configuration.userID == "@awfulbot:example.org")
    #expect(configuration.accessToken == "example-token")
    #expect(configuration.rooms == ["#goons:example.org"])
    #expect(configuration.roleOverrides == ["@friend:elsewhere.net": .member])
    #expect(configuration.validationErrors() == [])
  }

  @Test("check probes the example's matrix transport and reports an unreachable homeserver without the token")
  func probes() async throws {
    var configuration = try #require(Self.exampleMatrix().configuration(of: MatrixPlugin.self))
    configuration.homeserver = try #require(URL(string: "http://127.0.0.1:1"))
    let result = await MatrixPlugin.probe(
      configuration, context: TransportBuildContext())
    #expect(result.outcome == .fail)
    #expect(result.detail.hasPrefix("homeserver unreachable: "))
    #expect(!result.line.contains("example-token"))
  }

  @Test("building the transport needs the bot's database")
  func makeNeedsDatabase() throws {
    let settings = try Self.exampleMatrix()
    let error = try #require(throws: ConfigurationError.self) {
      try settings.make(context: TransportBuildContext())
    }
    #expect(error.problems.first?.contains("needs the bot's database") == true)
  }
}
