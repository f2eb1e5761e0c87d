import ChatBridge
import Foundation
import Testing

@testable import DiscordTransport

@Suite struct DiscordTransportConfigurationTests {
  static let token = "Zx9-secret_TOKEN"

  private func decode(_ json: String, secretsOptional: Bool = false) throws -> DiscordTransportConfiguration {
    let decoder = JSONDecoder()
    if secretsOptional { decoder.userInfo[.secretsOptional] = true }
    return try decoder.decode(DiscordTransportConfiguration.self, from: Data(json.utf8))
  }

  @Test func aConfigurationReadsEveryKey() throws {
    let configuration = try decode(
      """
      {"type": "discord", "name": "discord-goons", "username": "AwfulBot", "linkPreviews": true,
       "requestTimeoutSeconds": 5, "maximumRateLimitWaitSeconds": 30, "sendAttempts": 2,
       "rooms": {"general": {"webhook": "https://discord.com/api/webhooks/123/\(Self.token)"},
                 "alerts": {"webhook": "https://discord.com/api/v10/webhooks/456/\(Self.token)x", "username": "Alerts"},
                 "_comment": "notes are skipped"}}
      """)
    #expect(configuration.name == "discord-goons")
    #expect(configuration.rooms.keys.sorted() == ["alerts", "general"])
    #expect(configuration.rooms["general"]?.webhook?.id == "123")
    #expect(
      configuration.rooms["alerts"]?.webhook?.executeURL
        == "https://discord.com/api/v10/webhooks/456/\(Self.token)x?wait=true")
    #expect(configuration.username(for: "alerts") == "Alerts")
    #expect(configuration.username(for: "general") == "AwfulBot")
    #expect(configuration.linkPreviews)
    #expect(configuration.sendAttempts == 2)
  }

  /// Every problem at once, each at its key path, and no sentence repeats a webhook URL: it holds the token.
  @Test func everyProblemIsReportedAndNoneShowsTheToken() {
    let json = """
      {"name": "", "usernme": "x", "username": "Discord helper", "sendAttempts": 0, "requestTimeoutSeconds": "slow",
       "rooms": {"a": {"webhook": "http://discord.com/api/webhooks/1/\(Self.token)"},
                 "b": {"webhook": "https://discord.com/api/webhooks/notanumber/\(Self.token)"},
                 "c": {"webhook": "https://discord.com/api/webhooks/1/\(Self.token)?wait=true"},
                 "d": {}, "e": {"webhook": {"env": "UNRESOLVED"}, "colour": 3}}}
      """
    let error = #expect(throws: DiscordConfigurationError.self) { try decode(json) }
    let keys = error?.keyedProblems.map(\.key) ?? []
    #expect(
      Set(keys) == [
        "name", "usernme", "username", "sendAttempts", "requestTimeoutSeconds", "rooms.a.webhook", "rooms.b.webhook",
        "rooms.c.webhook", "rooms.d.webhook", "rooms.e.webhook", "rooms.e.colour",
      ])
    #expect(!"\(String(describing: error))".contains(Self.token))
  }

  @Test func twoRoomsCannotShareAWebhook() {
    let url = "https://discord.com/api/webhooks/7/\(Self.token)"
    let error = #expect(throws: DiscordConfigurationError.self) {
      try decode(#"{"rooms": {"a": {"webhook": "\#(url)"}, "b": {"webhook": "\#(url)"}}}"#)
    }
    #expect(error?.keyedProblems.map(\.key) == ["rooms.b.webhook"])
  }

  @Test func withoutSecretsTheRoomsAreStillRead() throws {
    let configuration = try decode(#"{"rooms": {"general": {"username": "Bot"}}}"#, secretsOptional: true)
    #expect(configuration.rooms["general"]?.webhook == nil)
    // A transport cannot run without them.
    #expect(throws: DiscordConfigurationError.self) { try DiscordTransport(configuration: configuration) }
  }

  @Test func onlyLoopbackMayUsePlainHTTP() {
    #expect((try? DiscordWebhook.parse("http://127.0.0.1:8080/api/webhooks/1/abc").get()) != nil)
    #expect((try? DiscordWebhook.parse("http://example.com/api/webhooks/1/abc").get()) == nil)
    #expect((try? DiscordWebhook.parse("https://discord.com/api/webhooks/1/a%2Fb").get()) == nil)
    #expect((try? DiscordWebhook.parse("https://discord.com/api/webhooks/1/abc/messages").get()) == nil)
  }

  @Test func aWebhookShowsItsIDAndNeverItsToken() throws {
    let webhook = try DiscordWebhook.parse("https://discord.com/api/webhooks/99/\(Self.token)").get()
    #expect("\(webhook)" == "webhook 99")
    #expect(!String(reflecting: webhook).contains(Self.token))
    var dumped = ""
    dump(webhook, to: &dumped)
    #expect(!dumped.contains(Self.token))
    #expect(
      webhook.scrubbed("GET https://discord.com/api/webhooks/99/\(Self.token) failed")
        == "GET https://discord.com/api/webhooks/99/<token> failed")
  }
}
