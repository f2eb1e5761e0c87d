import AwfulBotApp
import AwfulBotAppTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import IRCTransport
import MatrixTransport
import Testing

/// Every way a configuration can be wrong is reported with its key path and reason, all at once.
@Suite("ops: configuration validation")
struct OpsConfigValidationTests {
  @Test("the base configuration used by these tests is valid")
  func baseIsValid() throws {
    #expect(OpsConfig.problems() == [])
    let config = try OpsConfig.parse()
    #expect(config.metrics == MetricsSettings(), "metrics default to on when the section is absent")
    #expect(config.metrics?.address == HostPort(host: "127.0.0.1", port: 9464))
    #expect(config.effectiveLogLevel == .info)
  }

  @Test("text that is not JSON, and a top level that is not an object")
  func notJSON() {
    let error = #expect(throws: ConfigurationError.self) {
      try AppConfiguration.parse(data: Data("{\"forum\": ".utf8), source: "bot.json")
    }
    #expect(error?.problems.count == 1)
    #expect(error?.problems.first?.hasPrefix("bot.json: not valid JSON") == true)
    let array = #expect(throws: ConfigurationError.self) { try AppConfiguration.parse(data: Data("[]".utf8)) }
    #expect(array?.problems == ["(top level): expected an object, got a list"])
  }

  @Test("an unknown key is reported with the key it most likely meant")
  func unknownKeys() {
    #expect(
      OpsConfig.problems([
        "forum": ["username": "bot", "pasword": "pw", "password": "pw"], "polling": ["bookmarks": 60],
      ])
        == [
          "forum.pasword: unknown key (did you mean \"password\"?)",
          "polling.bookmarks: unknown key",
        ])
    #expect(OpsConfig.problems(["Transports": []]) == ["Transports: unknown key (did you mean \"transports\"?)"])
    #expect(OpsConfig.problems(["_comment": "notes are ignored"]) == [])
  }

  @Test("wrong value types name what was expected and what was found")
  func wrongTypes() {
    #expect(
      OpsConfig.problems([
        "forum": ["username": 7, "password": "pw", "requestSpacingSeconds": "1", "updateReadMarkers": "yes"],
        "polling": ["replayCap": 2.5], "dataDirectory": ["x"], "rooms": "all",
      ]) == [
        "forum.username: expected a string, got a number",
        "forum.requestSpacingSeconds: expected a number, got a string",
        "forum.updateReadMarkers: expected true or false, got a string",
        "dataDirectory: expected a string, got a list",
        "polling.replayCap: expected a whole number, got 2.5",
        "rooms: expected a list, got a string",
      ])
    #expect(
      OpsConfig.problems(["forum": ["username": "bot", "password": ["env": 3]]]) == [
        "forum.password: expected a string or {\"env\": \"VARIABLE\"}"
      ])
    #expect(
      OpsConfig.problems(["forum": ["username": "bot", "password": true]]) == [
        "forum.password: expected a string or {\"env\": \"VARIABLE\"}, got a boolean"
      ])
  }

  @Test("forum: every value check")
  func forumValues() {
    #expect(OpsConfig.problems(["forum": nil]) == ["forum: missing"])
    #expect(OpsConfig.problems(["forum": "x"]) == ["forum: expected an object, got a string"])
    #expect(
      OpsConfig.problems([
        "forum": [
          "username": "", "password": "pw", "baseURL": "forums.somethingawful.com", "timeZone": "Chicago",
          "requestSpacingSeconds": -1, "requestTimeoutSeconds": 0, "announcementsForumID": "general",
        ]
      ]) == [
        "forum.baseURL: expected an http(s) URL, got \"forums.somethingawful.com\"",
        "forum.username: must not be empty",
        "forum.timeZone: unknown time zone \"Chicago\"",
        "forum.requestSpacingSeconds: must be 0 or more",
        "forum.requestTimeoutSeconds: must be more than 0",
        "forum.announcementsForumID: expected a forum id like \"1\", got a string",
      ])
  }

  @Test("the forum password comes from the config, {\"env\": …}, or AWFULBOT_FORUM_PASSWORD")
  func forumPassword() throws {
    let absent: [String: Any] = ["username": "bot"]
    #expect(
      OpsConfig.problems(["forum": absent]) == ["forum.password: <secret from $AWFULBOT_FORUM_PASSWORD> is not set"])
    let fromVariable = try OpsConfig.parse(["forum": absent], environment: ["AWFULBOT_FORUM_PASSWORD": "s3cret"])
    #expect(fromVariable.forum.password.resolve(environment: ["AWFULBOT_FORUM_PASSWORD": "s3cret"]) == "s3cret")
    let named: [String: Any] = ["username": "bot", "password": ["env": "BOT_PW"]]
    #expect(OpsConfig.problems(["forum": named]) == ["forum.password: <secret from $BOT_PW> is not set"])
    #expect(OpsConfig.problems(["forum": named], environment: ["BOT_PW": "x"]) == [])
    #expect(OpsConfig.problems(["forum": named], checksSecrets: false) == [], "status and export need no secrets")
  }

  @Test("polling, commands, data directory")
  func otherSections() {
    #expect(
      OpsConfig.problems([
        "polling": ["bookmarksSeconds": 4, "forumsSeconds": 1, "replayCap": 0, "maximumBackoffSeconds": 10],
        "commands": ["prefix": "! ", "botName": " "], "dataDirectory": " ",
      ]) == [
        "dataDirectory: must not be empty (leave it out to use the working directory)",
        "polling.bookmarksSeconds: must be at least 5 seconds, got 4.0",
        "polling.forumsSeconds: must be at least 5 seconds, got 1.0",
        "polling.replayCap: must be at least 1, got 0",
        "polling.maximumBackoffSeconds: must be at least 30 seconds, got 10.0",
        "commands.prefix: expected one or more non-space characters, got \"! \"",
        "commands.botName: must not be empty",
      ])
  }

  @Test("transports: the list, each entry, names")
  func transportList() {
    #expect(OpsConfig.problems(["transports": nil]) == ["transports: missing"])
    #expect(OpsConfig.problems(["transports": ["type": "console"]]) == ["transports: expected a list, got an object"])
    #expect(OpsConfig.problems(["transports": []]) == ["transports: at least one transport is needed"])
    #expect(
      OpsConfig.problems([
        "transports": [
          "console", ["name": "x"], ["type": "console", "name": "has space"], ["type": "console", "colour": "red"],
        ]
      ]) == [
        "transports[0]: expected an object, got a string",
        "transports[1].type: missing",
        "transports[2].name: expected letters, digits, - or _, got \"has space\"",
        "transports[3].colour: unknown key for a console transport",
      ])
  }

  @Test("a transport of an unknown type is reported once, not again by the rooms that name it")
  func unknownTypeOnce() {
    #expect(
      OpsConfig.problems([
        "transports": [["type": "telegram", "name": "tg"]], "rooms": [["transport": "tg", "room": "chat"]],
      ]) == ["transports[0].type: unknown transport \"telegram\" (supported: \(TransportType.supported))"])
  }

  @Test("matrix transports: every check")
  func matrixTransport() {
    #expect(
      OpsConfig.transportProblems(["type": "matrix"]) == [
        "transports[0].homeserver: missing", "transports[0].userID: missing",
        "transports[0]: set accessToken or password (or $AWFULBOT_<NAME>_ACCESS_TOKEN / _PASSWORD)",
      ])
    #expect(
      OpsConfig.transportProblems([
        "type": "matrix", "homeserver": "matrix.example.org", "userID": "awfulbot", "accessToken": "t",
        "rooms": ["#ok:example.org", "goons"], "memberPowerLevel": 100, "adminPowerLevel": 50,
        "roleOverrides": ["@a:b": "king"], "syncTimeoutSeconds": 0, "acessToken": "x",
      ]) == [
        "transports[0].acessToken: unknown key for a matrix transport (did you mean \"accessToken\"?)",
        "transports[0].homeserver: expected an http(s) URL, got \"matrix.example.org\"",
        "transports[0].userID: expected a full Matrix user id like @awfulbot:example.org, got \"awfulbot\"",
        "transports[0].rooms[1]: expected a room id (!id:server) or alias (#name:server), got \"goons\"",
        "transports[0].memberPowerLevel: must not exceed adminPowerLevel (50)",
        "transports[0].roleOverrides.@a:b: expected viewer, member or admin",
        "transports[0].syncTimeoutSeconds: expected 1 to 300 seconds, got 0.0",
      ])
    #expect(
      OpsConfig.transportProblems([
        "type": "matrix", "homeserver": "https://m.example.org", "userID": "@bot:example.org", "accessToken": "t",
        "acceptedIdentities": [
          "@alice:example.org": "uvaD 7H5E c9Pz b8x/ Fiqp 6pov rKYG fPp9 f2co dWfK R1g", "bob": "short",
        ],
      ]) == [
        "transports[0].acceptedIdentities.bob: expected a full Matrix user id as the key",
        "transports[0].acceptedIdentities.bob: expected the user's new master key as the bot's notice shows it "
          + "(43 characters, spaces ignored)",
      ])
  }

  @Test("matrix secrets: {\"env\": …} and AWFULBOT_<NAME>_<KEY>")
  func matrixSecrets() throws {
    let matrix: [String: Any] = [
      "type": "matrix", "name": "matrix-work", "homeserver": "https://m.example.org", "userID": "@bot:example.org",
    ]
    #expect(
      OpsConfig.transportProblems(matrix, environment: ["AWFULBOT_MATRIX_WORK_ACCESS_TOKEN": "tok"]) == [],
      "a secret left out is read from AWFULBOT_<NAME>_<KEY>")
    var withReference = matrix
    withReference["password"] = ["env": "MATRIX_PW"]
    #expect(
      OpsConfig.transportProblems(withReference) == [
        "transports[0].password: <secret from $MATRIX_PW> is not set"
      ])
    let config = try OpsConfig.parse(["transports": [withReference]], environment: ["MATRIX_PW": "pw"])
    let decoded = try #require(config.transports[0].configuration(of: MatrixPlugin.self))
    #expect(decoded.name == "matrix-work")
    #expect(decoded.password == "pw")
    #expect(config.transports[0].writtenSecrets == ["password": SecretValue(environment: "MATRIX_PW")])
    #expect(
      TransportSettings.environmentVariable(transport: "irc-libera", key: "sasl.password")
        == "AWFULBOT_IRC_LIBERA_SASL_PASSWORD")
  }

  @Test("irc transports: the issue's example and every other check")
  func ircTransport() {
    #expect(
      OpsConfig.problems([
        "transports": [["type": "console"], ["type": "irc", "server": "irc.example", "nick": "awfulbot"]]
      ]) == ["transports[1].server: expected host:port, got \"irc.example\""])
    #expect(
      OpsConfig.transportProblems([
        "type": "irc", "server": "irc.example.org:99999", "nick": "9lives", "alternateNicks": ["ok_", "bad nick"],
        "channels": ["goons", ["name": "#x", "key": "a b"], 5], "sasl": ["mechanism": "PLAIN"],
        "relayAs": "shout", "titleColour": 99, "floodBurst": 0, "pingTimeoutSeconds": 0,
        "floodIntervalSeconds": -1, "clientCertificateFile": "/c.pem",
      ]) == [
        "transports[0].server: expected host:port, got \"irc.example.org:99999\"",
        "transports[0].nick: nick “9lives” contains a character IRC does not allow in nicks",
        "transports[0].alternateNicks[1]: nick “bad nick” contains a character IRC does not allow in nicks",
        "transports[0].channels[0]: “goons” is not a channel name (it must start with #, &, + or !)",
        "transports[0].channels[1].key: must not be empty or contain spaces or commas",
        "transports[0].channels[2]: expected a channel name or {\"name\", \"key\"}, got a number",
        "transports[0].sasl.account: missing (SASL PLAIN needs the services account)",
        "transports[0].sasl.password: missing (or set $AWFULBOT_<NAME>_SASL_PASSWORD)",
        "transports[0].relayAs: expected notice or privmsg, got \"shout\"",
        "transports[0].titleColour: expected a colour number 0–98, got 99",
        "transports[0].floodBurst: must be at least 1",
        "transports[0].pingTimeoutSeconds: must be more than 0 seconds",
        "transports[0].floodIntervalSeconds: must be 0 or more",
        "transports[0]: clientCertificateFile and clientKeyFile go together",
      ])
    #expect(
      OpsConfig.transportProblems([
        "type": "irc", "server": "irc.example.org:6697", "nick": "bot", "sasl": ["mechanism": "SCRAM"],
      ]) == ["transports[0].sasl.mechanism: expected PLAIN or EXTERNAL, got \"SCRAM\""])
    #expect(
      OpsConfig.transportProblems([
        "type": "irc", "server": "irc.example.org:6697", "nick": "bot",
        "channelRoles": ["o": "admin", "v": "boss", "@": "member", "h": 2, "_comment": "notes are fine"],
      ]) == [
        "transports[0].channelRoles.@: expected a channel member mode letter (q, a, o, h, v)",
        "transports[0].channelRoles.h: expected admin, member or viewer, got a number",
        "transports[0].channelRoles.v: expected admin, member or viewer, got \"boss\"",
      ])
    // A role is read the same way everywhere (roles[], channelRoles, roleOverrides, commands): any case.
    #expect(
      OpsConfig.transportProblems([
        "type": "irc", "server": "irc.example.org:6697", "nick": "bot", "channelRoles": ["o": "Admin", "v": "MEMBER"],
      ]).isEmpty)
    #expect(
      OpsConfig.transportProblems([
        "type": "matrix", "homeserver": "https://m.example.org", "userID": "@bot:example.org", "accessToken": "t",
        "roleOverrides": ["@a:example.org": "Admin"],
      ]).isEmpty)
    #expect(
      OpsConfig.transportProblems([
        "type": "irc", "server": "irc.example.org:6697", "nick": "bot", "channelRoles": "op",
      ])
        == [
          "transports[0].channelRoles: expected an object of mode letters to roles, like {\"o\": \"admin\", \"v\": \"member\"}"
        ])
  }

  @Test("irc settings are read from the config file's own keys (server as host:port, channels as names or objects)")
  func ircPrepared() throws {
    let config = try OpsConfig.parse(
      [
        "transports": [
          [
            "type": "irc", "name": "irc-libera", "server": "irc.libera.chat:6697", "nick": "awfulbot",
            "channels": ["#goons", ["name": "#private", "key": "k"]],
            "sasl": ["account": "awfulbot", "password": ["env": "SASL_PW"]],
          ]
        ]
      ], environment: ["SASL_PW": "pw"])
    let view = try #require(config.transports[0].configuration(of: IRCPlugin.self))
    #expect(view.name == "irc-libera")
    #expect(view.host == "irc.libera.chat")
    #expect(view.port == 6697)
    #expect(view.channels == [.init(name: "#goons"), .init(name: "#private", key: "k")])
    #expect(view.sasl?.password == "pw")
  }

  @Test("an irc transport is built knowing its place in the config, the bot's version and its channel roles")
  func ircBuilt() throws {
    let config = try OpsConfig.parse([
      "transports": [
        ["type": "console"],
        [
          "type": "irc", "name": "irc-libera", "server": "irc.libera.chat:6697", "nick": "awfulbot",
          "channelRoles": ["_comment": "ops only", "o": "admin"],
        ],
      ]
    ])
    let transports = try TransportFactory.makeTransports(for: config)
    let irc = try #require(transports.last as? IRCTransport)
    #expect(irc.configuration.settingsPath == "transports[1]")
    #expect(irc.configuration.versionReply == "AwfulBot \(AppInfo.version)")
    #expect(irc.configuration.channelRoles == ["o": .admin])
  }

  @Test("roles and rooms must name a configured transport and valid values")
  func rolesAndRooms() {
    #expect(
      OpsConfig.problems([
        "roles": [["transport": "console", "user": "", "role": "admin"], ["user": "x"]],
        "rooms": [
          ["transport": "matrix", "room": "#a:b"], ["transport": "console", "room": "", "mode": "digest daily 25:00"],
          "console", ["transport": "console", "room": "console", "mode": "summary -5"],
          ["transport": "console", "room": "console", "mode": "digest"],
        ],
      ]) == [
        "roles[0].user: must not be empty",
        "roles[1].transport: missing",
        "roles[1].role: missing",
        "rooms[0].transport: no transport named \"matrix\"",
        "rooms[1].room: must not be empty",
        "rooms[1].mode: expected each, summary [K], digest hourly or digest daily HH:MM, got \"digest daily 25:00\" "
          + "(The time looks like 08:30.)",
        "rooms[2]: expected an object, got a string",
        // The same grammar as the mode command: a threshold below 1 is refused, a bare digest is hourly.
        "rooms[3].mode: expected each, summary [K], digest hourly or digest daily HH:MM, got \"summary -5\" "
          + "(K is a number of posts from 1 to 1000.)",
      ])
  }

  @Test("logging and metrics")
  func loggingAndMetrics() throws {
    #expect(
      OpsConfig.problems([
        "logging": ["level": "loud", "format": "xml"], "metrics": ["listen": "9464", "enabled": "no"],
        "logLevel": "verbose", "chatTimeZone": "Nowhere/Land",
      ]) == [
        "logging.level: expected one of trace, debug, info, notice, warning, error, critical, got \"loud\"",
        "logging.format: expected text or json, got \"xml\"",
        "metrics.listen: expected host:port like 127.0.0.1:9464, got \"9464\"",
        "metrics.enabled: expected true or false, got a string",
        "logLevel: unknown level \"verbose\"",
        "chatTimeZone: unknown time zone \"Nowhere/Land\"",
      ])
    let off = try OpsConfig.parse(["metrics": ["enabled": false]])
    #expect(off.metrics?.isEnabled == false)
    let json = try OpsConfig.parse(["logging": ["level": "debug", "format": "json"], "logLevel": "error"])
    #expect(json.effectiveLogLevel == .debug, "logging.level wins over the older logLevel")
  }

  @Test("host:port parsing")
  func hostPort() {
    #expect(HostPort(parsing: "127.0.0.1:9464") == HostPort(host: "127.0.0.1", port: 9464))
    #expect(HostPort(parsing: "[::1]:80") == HostPort(host: "::1", port: 80))
    #expect(HostPort(parsing: "[::1]:80")?.description == "[::1]:80")
    for bad in ["", "host", ":80", "host:", "host:http", "host:70000", "::1:80", "a b:1"] {
      #expect(HostPort(parsing: bad) == nil, "\(bad)")
    }
  }

  @Test("a config readable by others that holds a literal secret gives a warning")
  func permissionWarning() throws {
    let literal = try OpsConfig.data([:])
    let open = try OpsConfig.temporaryFile(literal, mode: 0o644)
    defer { try? FileManager.default.removeItem(atPath: open) }
    let warned = try AppConfiguration.loadReportingWarnings(path: open, environment: [:])
    #expect(warned.warnings.count == 1)
    #expect(warned.warnings.first?.contains("forum.password") == true)
    #expect(warned.warnings.first?.contains("chmod 600") == true)
    #expect(warned.warnings.first?.contains("\"pw\"") == false)

    let closed = try OpsConfig.temporaryFile(literal, mode: 0o600)
    defer { try? FileManager.default.removeItem(atPath: closed) }
    #expect(try AppConfiguration.loadReportingWarnings(path: closed, environment: [:]).warnings == [])

    let referenced = try OpsConfig.data(["forum": ["username": "bot", "password": ["env": "PW"]]])
    let openButSafe = try OpsConfig.temporaryFile(referenced, mode: 0o644)
    defer { try? FileManager.default.removeItem(atPath: openButSafe) }
    #expect(try AppConfiguration.loadReportingWarnings(path: openButSafe, environment: ["PW": "x"]).warnings == [])
  }

  @Test("a configuration built in code is checked like a file")
  func codeBuilt() throws {
    let config = AppConfiguration(
      forum: .init(username: "bot", password: SecretValue(environment: "NOPE")),
      transports: [
        try TransportSettings.read(
          ["type": "irc", "server": "irc.example.org:6697", "nick": "bot", "nickServPassword": ["env": "NS"]],
          checksSecrets: false)
      ])
    let error = #expect(throws: ConfigurationError.self) { try config.validate(environment: [:]) }
    #expect(
      error?.problems == [
        "forum.password: <secret from $NOPE> is not set",
        "transports[0].nickServPassword: <secret from $NS> is not set",
      ])
    // A transport's settings are read, and checked, as the file's are.
    let transport = #expect(throws: ConfigurationError.self) {
      try TransportSettings.read(["type": "irc", "server": "x", "nick": "bot"])
    }
    #expect(transport?.problems == ["server: expected host:port, got \"x\""])
  }
}
