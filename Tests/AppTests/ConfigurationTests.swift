import AwfulBotApp
import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

@Suite("configuration")
struct ConfigurationTests {
  static let repository = Repository.root

  /// Every secret the example reads from the environment.
  static let exampleSecrets = [
    "AWFULBOT_FORUM_PASSWORD": "pw", "AWFULBOT_MATRIX_ACCESS_TOKEN": "token", "AWFULBOT_IRC_SASL_PASSWORD": "sasl",
    "AWFULBOT_IRC_RIZON_NICKSERV_PASSWORD": "nickserv",
    "AWFULBOT_DISCORD_GENERAL_WEBHOOK": "https://discord.com/api/webhooks/1/example",
  ]

  private func write(_ json: String) throws -> String {
    let url = TestScratch.path("awfulbot-config", extension: "json")
    try Data(json.utf8).write(to: url)
    return url.path
  }

  @Test("the example configuration loads when its secret is in the environment")
  func exampleLoads() throws {
    let path = Self.repository.appendingPathComponent("config.example.json").path
    let config = try AppConfiguration.load(path: path, environment: Self.exampleSecrets)
    #expect(config.forum.username == "YourBotAccount")
    #expect(config.transports.map(\.type) == [.console, .matrix, .irc, .irc, .discord])
    #expect(config.rooms?.first?.subscriptions == [.bookmarks(stars: []), .announcements])
    #expect(config.metrics?.address == HostPort(host: "127.0.0.1", port: 9464))
  }

  @Test("the example configuration names the missing secret without showing anything secret")
  func missingSecret() throws {
    let path = Self.repository.appendingPathComponent("config.example.json").path
    let error = try #require(throws: ConfigurationError.self) {
      try AppConfiguration.load(path: path, environment: [:])
    }
    #expect(
      error.problems == [
        "forum.password: <secret from $AWFULBOT_FORUM_PASSWORD> is not set",
        "transports[1].accessToken: <secret from $AWFULBOT_MATRIX_ACCESS_TOKEN> is not set",
        "transports[2].sasl.password: <secret from $AWFULBOT_IRC_SASL_PASSWORD> is not set",
        "transports[3].nickServPassword: <secret from $AWFULBOT_IRC_RIZON_NICKSERV_PASSWORD> is not set",
        "transports[4].rooms.general.webhook: <secret from $AWFULBOT_DISCORD_GENERAL_WEBHOOK> is not set",
      ])
  }

  @Test(
    "a Discord room's webhook left out of the file comes from AWFULBOT_<NAME>_ROOMS_<ROOM>_WEBHOOK, named when unset")
  func discordWebhookFromTheEnvironment() throws {
    let json = """
      {"forum": {"username": "bot", "password": "pw"},
       "transports": [{"type": "discord", "name": "discord-goons", "rooms": {"general": {}, "off-topic": {}}}]}
      """
    let url = "https://discord.com/api/webhooks/123456789012345678/abcDEF"
    let config = try AppConfiguration.parse(
      data: Data(json.utf8),
      environment: [
        "AWFULBOT_DISCORD_GOONS_ROOMS_GENERAL_WEBHOOK": url,
        "AWFULBOT_DISCORD_GOONS_ROOMS_OFF_TOPIC_WEBHOOK": url.replacingOccurrences(of: "123", with: "124"),
      ])
    #expect(config.transports.first?.secretKeys == ["rooms.general.webhook", "rooms.off-topic.webhook"])
    #expect(config.literalSecretPaths == ["forum.password"], "a webhook from the environment is no literal secret")
    let error = try #require(throws: ConfigurationError.self) {
      try AppConfiguration.parse(data: Data(json.utf8), environment: [:])
    }
    #expect(
      error.problems == [
        "transports[0].rooms.general.webhook: missing (or set $AWFULBOT_<NAME>_ROOMS_GENERAL_WEBHOOK)",
        "transports[0].rooms.off-topic.webhook: missing (or set $AWFULBOT_<NAME>_ROOMS_OFF_TOPIC_WEBHOOK)",
      ])
  }

  @Test("every problem is reported at once with its key path")
  func allProblemsAtOnce() throws {
    let path = try write(
      """
      {"forum": {"baseURL": "ftp://x", "username": " ", "password": "hunter2", "timeZone": "Mars/Base"},
       "polling": {"bookmarksSeconds": 1},
       "transports": [{"type": "telegraph"}, {"type": "console"}, {"type": "console"}],
       "roles": [{"transport": "nowhere", "user": "u", "role": "king"}],
       "rooms": [{"transport": "console", "room": "r", "subscriptions": ["bookmarks:pink", "thread:abc"],
                  "mode": "sometimes"}],
       "logLevel": "loud"}
      """)
    let error = try #require(throws: ConfigurationError.self) { try AppConfiguration.load(path: path) }
    let expected = [
      "forum.baseURL: expected an http(s) URL, got \"ftp://x\"",
      "forum.username: must not be empty",
      "forum.timeZone: unknown time zone \"Mars/Base\"",
      "polling.bookmarksSeconds: must be at least 5 seconds, got 1.0",
      "transports[0].type: unknown transport \"telegraph\" (supported: \(TransportType.supported))",
      "transports[2].name: duplicate name \"console\"",
      "roles[0].transport: no transport named \"nowhere\"",
      "roles[0].role: expected viewer, member or admin, got \"king\"",
      "rooms[0].subscriptions[0]: expected bookmarks, bookmarks:<colour>, announcements, thread:<id>, forum:<id> or lepers, got \"bookmarks:pink\"",
      "rooms[0].subscriptions[1]: expected bookmarks, bookmarks:<colour>, announcements, thread:<id>, forum:<id> or lepers, got \"thread:abc\"",
      "rooms[0].mode: expected each, summary [K], digest hourly or digest daily HH:MM, got \"sometimes\"",
      "logLevel: unknown level \"loud\"",
    ]
    #expect(error.problems == expected)
    #expect(!error.description.contains("hunter2"))
  }

  @Test("a missing key and a wrong type name their path")
  func decodingErrors() throws {
    let missing = try write(#"{"forum": {"password": "x"}, "transports": []}"#)
    let missingError = try #require(throws: ConfigurationError.self) { try AppConfiguration.load(path: missing) }
    #expect(missingError.problems == ["forum.username: missing", "transports: at least one transport is needed"])

    let wrongType = try write(#"{"forum": {"username": "u", "password": "x"}, "transports": [{"type": 3}]}"#)
    let typeError = try #require(throws: ConfigurationError.self) { try AppConfiguration.load(path: wrongType) }
    #expect(typeError.problems == ["transports[0].type: expected a string, got a number"])
  }

  @Test("a browser's clearance: cookies as secrets and the User-Agent reach the forum client; mistakes are named")
  func forumClearance() throws {
    let good = try write(
      """
      {"forum": {"username": "u", "password": "x", "cookies": {"cf_clearance": {"env": "AWFULBOT_CF_CLEARANCE"}},
                 "userAgent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0"},
       "transports": [{"type": "console"}]}
      """)
    let environment = ["AWFULBOT_CF_CLEARANCE": "abc.def-1700000000-1.2.1.1-xyz"]
    let config = try AppConfiguration.load(path: good, environment: environment)
    let client = try config.forum.clientConfiguration(environment: environment)
    #expect(client.extraCookies == ["cf_clearance": "abc.def-1700000000-1.2.1.1-xyz"])
    #expect(client.userAgent == "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0")
    #expect(!"\(config.forum.cookies)".contains("abc.def"), "a cookie is a secret")

    let unset = try #require(throws: ConfigurationError.self) {
      try AppConfiguration.load(path: good, environment: [:])
    }
    #expect(unset.problems == ["forum.cookies.cf_clearance: <secret from $AWFULBOT_CF_CLEARANCE> is not set"])
    let bad = try write(
      """
      {"forum": {"username": "u", "password": "x", "cookies": {"cf clearance": "x", "ok": "a b"}, "userAgent": ""},
       "transports": [{"type": "console"}]}
      """)
    let error = try #require(throws: ConfigurationError.self) { try AppConfiguration.load(path: bad) }
    #expect(
      error.problems == [
        "forum.cookies.cf clearance: is not a cookie name",
        "forum.cookies.ok: a cookie value has no spaces, commas or semicolons",
        "forum.userAgent: must be one line of text, as the browser sends it",
      ])
  }

  @Test("an unreadable file says so")
  func unreadable() throws {
    let error = try #require(throws: ConfigurationError.self) {
      try AppConfiguration.load(path: "/nonexistent/awfulbot.json")
    }
    #expect(error.problems.first?.hasPrefix("/nonexistent/awfulbot.json: cannot read the file") == true)
  }

  @Test("secrets never show in descriptions")
  func secretDescription() {
    #expect("\(SecretValue(literal: "hunter2"))" == "<secret>")
    #expect(SecretValue(environment: "X").resolve(environment: ["X": "v"]) == "v")
    #expect(SecretValue(environment: "X").resolve(environment: ["X": ""]) == nil)
  }
}

@Suite("who may act, as check shows it")
struct PermissionTableTests {
  @Test(
    "per transport: the account scope only for whom the config names, room power only in its rooms; inviters warned")
  func exampleTable() throws {
    let path = ConfigurationTests.repository.appendingPathComponent("config.example.json").path
    var configuration = try AppConfiguration.load(path: path, environment: ConfigurationTests.exampleSecrets)
    let results = PermissionTable.results(for: configuration)
    let matrix = try #require(results.first { $0.name == "who may act on matrix" })
    #expect(matrix.outcome == .pass)
    #expect(
      matrix.detail.contains(
        "account (post, private messages, bookmarks, who may reply): roles[]: @you:example.org (admin); "
          + "roleOverrides: @friend:elsewhere.net (member); room power 50+ member, 100+ admin in #goons:example.org, "
          + "#awfulbot-admins:example.org"), "\(matrix.detail)")
    #expect(
      matrix.detail.contains(
        "private messages (pms, pm, pmreply): only in privateMessages.rooms: #awfulbot-admins:example.org"))
    let irc = try #require(results.first { $0.name == "who may act on irc-libera" })
    #expect(irc.detail.contains("admins: youraccount"), "\(irc.detail)")
    #expect(irc.detail.contains("in #goons, #goons-private"), "\(irc.detail)")
    #expect(irc.detail.contains("(none here)"))
    // A webhook hears nobody: no account, room or reading scope is promised there.
    let discord = try #require(results.first { $0.name == "who may act on discord" })
    #expect(discord.detail.hasPrefix("nobody: it only sends (relay only)"), "\(discord.detail)")
    #expect(!discord.detail.contains("roles[]"))
    #expect(!results.contains { $0.outcome == .warn }, "the example invites only from its own server")

    let index = try #require(configuration.transports.firstIndex { $0.type == .matrix })
    configuration.transports[index] = try Self.changing(
      configuration.transports[index], "allowedInviters", to: ["*", "elsewhere.net", "example.org", "@a:b.c"])
    let warnings = PermissionTable.results(for: configuration).filter { $0.outcome == .warn }.map(\.detail)
    #expect(warnings.count == 2, "\(warnings)")
    #expect(warnings.first?.hasPrefix("allowedInviters is *: anyone on any server") == true)
    #expect(warnings.last?.contains("names the server elsewhere.net, not the bot's own (example.org)") == true)

    // An IRC private-message room named by nick is warned about; one named by account is not.
    configuration.transports[index] = try Self.changing(
      configuration.transports[index], "allowedInviters", to: ["example.org"])
    configuration.privateMessages = .init(rooms: [
      .init(transport: "irc-libera", room: "alice"), .init(transport: "irc-libera", room: "account:bob"),
    ])
    let nicks = PermissionTable.results(for: configuration).filter { $0.outcome == .warn }
    #expect(nicks.map(\.name) == ["private messages on irc-libera"])
    #expect(nicks.first?.detail.contains("names the nick alice: whoever holds that nick reads") == true)
    #expect(nicks.first?.fix?.contains("\"account:alice\"") == true)
  }

  /// The transport's settings with one key written differently, read again as the file would be.
  private static func changing(_ settings: TransportSettings, _ key: String, to value: JSONValue) throws
    -> TransportSettings
  {
    guard case .object(var entry) = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(settings))
    else { throw ConfigurationError(problems: ["not an object"]) }
    entry[key] = value
    return try TransportSettings.read(entry, environment: ["AWFULBOT_MATRIX_ACCESS_TOKEN": "t"])
  }

}
