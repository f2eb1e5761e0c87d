import AwfulBotApp
import AwfulBotAppTestKit
import AwfulBotTestKit
import ChatBridge
import FakeForum
import Foundation
import IRCTransport
import Logging
import Synchronization
import Testing

/// `awfulbot check` and `awfulbot setup` against the forum emulator.
@Suite("ops: check and setup")
struct OpsCheckTests {
  let directory: URL

  init() throws {
    directory = TestScratch.path("awfulbot-ops-check")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  func writeConfig(forum: URL, password: Any = ["env": "CHECK_PW"], extra: [String: Any] = [:]) throws -> String {
    var object: [String: Any] = [
      "forum": ["baseURL": forum.absoluteString, "username": FakeForumSeed.botUsername, "password": password],
      "dataDirectory": directory.appendingPathComponent("data").path,
      // The Matrix probe is tested against a real homeserver in OpsMatrixTests.
      "transports": [["type": "console"]],
      "metrics": ["enabled": false],
    ]
    object.merge(extra) { _, new in new }
    return try OpsConfig.temporaryFile(JSONSerialization.data(withJSONObject: object), mode: 0o600)
  }

  @Test("every check passes against the emulator, one line each, and the forum line says who logged in")
  func passing() async throws {
    let forum = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo, pageNav: .new))
    let baseURL = try await forum.start()
    let path = try writeConfig(forum: baseURL)
    let reported = Mutex<[String]>([])
    let results = await ConfigurationCheck(
      configurationPath: path, environment: ["CHECK_PW": FakeForumSeed.botPassword]
    ).run { result in reported.withLock { $0.append(result.line) } }
    #expect(results.filter { $0.outcome == .fail } == [])
    #expect(reported.withLock { $0 } == results.map(\.line), "each result is reported as soon as it is known")
    let lines = results.map(\.line)
    #expect(lines.first?.hasPrefix("✓ config: \(path) is valid (1 transport(s), 0 room(s))") == true)
    #expect(lines.contains { $0.hasPrefix("✓ data directory:") })
    #expect(lines.contains { $0.hasPrefix("✓ database:") && $0.contains("will be created") })
    #expect(lines.contains { $0.hasPrefix("✓ forum login: logged in to 127.0.0.1 as awfulbot; bookmarks page 1 of 1") })
    #expect(lines.contains("✓ transport console (console): nothing to reach"))
    #expect(lines.last == "- metrics: off")
    await forum.stop()
  }

  @Test("a wrong password fails the forum check with the fix; an existing database is opened")
  func wrongPassword() async throws {
    let forum = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo, pageNav: .new))
    let baseURL = try await forum.start()
    let path = try writeConfig(forum: baseURL)
    _ = try DatabaseMaintenance.migrate(databasePath: directory.appendingPathComponent("data/awfulbot.sqlite").path)
    let results = await ConfigurationCheck(configurationPath: path, environment: ["CHECK_PW": "wrong"]).run()
    let login = try #require(results.first { $0.name == "forum login" })
    #expect(login.outcome == .fail)
    #expect(login.line.contains("rejected the username or password"))
    #expect(login.line.contains("fix: check forum.username and forum.password"))
    #expect(!login.line.contains("wrong"), "the password never shows")
    let database = try #require(results.first { $0.name == "database" })
    #expect(database.outcome == .pass)
    #expect(database.detail.contains("opens (0 rooms, 0 subscriptions)"))
    await forum.stop()
  }

  @Test("an unreachable forum, an invalid config, and a world-readable literal secret")
  func failures() async throws {
    let unreachable = try writeConfig(forum: URL(string: "http://127.0.0.1:1/")!)
    var check = ConfigurationCheck(configurationPath: unreachable, environment: ["CHECK_PW": "x"])
    check.connectTimeout = .milliseconds(500)
    let results = await check.run()
    let login = try #require(results.first { $0.name == "forum login" })
    #expect(login.outcome == .fail)
    #expect(login.fix == "check forum.baseURL, DNS and outbound HTTPS from this host")

    let invalid = try writeConfig(
      forum: URL(string: "http://127.0.0.1:1/")!, extra: ["polling": ["bookmarksSeconds": 1]])
    let invalidResults = await ConfigurationCheck(configurationPath: invalid, environment: [:]).run()
    #expect(
      invalidResults.map(\.line) == [
        "✗ config: forum.password: <secret from $CHECK_PW> is not set\n    fix: export CHECK_PW=… before running "
          + "(systemd: put it in the EnvironmentFile, see deploy/awfulbot.env.example)",
        "✗ config: polling.bookmarksSeconds: must be at least 5 seconds, got 1.0\n    fix: edit \(invalid) "
          + "(every key is described in config.example.json)",
        "- everything else: not checked until the configuration is valid",
      ])

    let literal = try writeConfig(forum: URL(string: "http://127.0.0.1:1/")!, password: "hunter2")
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: literal)
    var literalCheck = ConfigurationCheck(configurationPath: literal, environment: [:])
    literalCheck.connectTimeout = .milliseconds(500)
    let literalResults = await literalCheck.run()
    let warning = try #require(literalResults.first { $0.outcome == .warn })
    #expect(warning.line.hasPrefix("! config permissions:"))
    #expect(!warning.line.contains("hunter2"))
  }

  @Test("setup without a terminal writes a private config and env file from flags and tests the login")
  func setupNonInteractive() async throws {
    let forum = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo, pageNav: .new))
    let baseURL = try await forum.start()
    var answers = SetupAnswers()
    answers.forumUsername = FakeForumSeed.botUsername
    answers.forumPassword = FakeForumSeed.botPassword
    answers.forumBaseURL = baseURL.absoluteString
    answers.dataDirectory = directory.appendingPathComponent("data").path
    answers.transport = .matrix
    answers.matrixHomeserver = "https://matrix.example.org"
    answers.matrixUserID = "@awfulbot:example.org"
    answers.matrixAccessToken = "syt_token"
    answers.matrixRoom = "#goons:example.org"
    answers.adminUser = "@me:example.org"
    answers.metricsListen = "127.0.0.1:9465"
    let output = directory.appendingPathComponent("bot.json").path
    let outcome = try await SetupWizard(answers: answers, outputPath: output, interactive: false).run()

    #expect(outcome.loginCheck?.outcome == .pass)
    #expect(outcome.environmentFilePath == directory.appendingPathComponent("bot.env").path)
    for file in [output, try #require(outcome.environmentFilePath)] {
      let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber
      #expect(mode?.intValue == 0o600, "\(file)")
    }
    let configText = try String(contentsOfFile: output, encoding: .utf8)
    #expect(!configText.contains(FakeForumSeed.botPassword) && !configText.contains("syt_token"))
    let environmentText = try String(contentsOfFile: try #require(outcome.environmentFilePath), encoding: .utf8)
    #expect(
      environmentText
        == "AWFULBOT_FORUM_PASSWORD=\(FakeForumSeed.botPassword)\nAWFULBOT_MATRIX_ACCESS_TOKEN=syt_token\n")
    let environment = [
      "AWFULBOT_FORUM_PASSWORD": FakeForumSeed.botPassword, "AWFULBOT_MATRIX_ACCESS_TOKEN": "syt_token",
    ]
    let loaded = try AppConfiguration.loadReportingWarnings(path: output, environment: environment)
    #expect(loaded.warnings == [])
    #expect(loaded.configuration.rooms?.first?.room == "#goons:example.org")
    #expect(loaded.configuration.roles?.first?.user == "@me:example.org")
    #expect(loaded.configuration.metrics?.listen == HostPort(host: "127.0.0.1", port: 9465))

    await #expect(throws: SetupError.self) {
      try await SetupWizard(answers: answers, outputPath: output, interactive: false).run()
    }
    var incomplete = answers
    incomplete.forumUsername = nil
    let error = await #expect(throws: SetupError.self) {
      try await SetupWizard(
        answers: incomplete, outputPath: output, interactive: false, overwrite: true, testLogin: false
      ).run()
    }
    #expect(error?.description == "missing --forum-username (or run setup in a terminal to be asked)")
    await forum.stop()
  }

  @Test("setup for IRC with secrets in the config")
  func setupIRC() throws {
    var answers = SetupAnswers()
    answers.forumUsername = "bot"
    answers.forumPassword = "pw"
    answers.transport = .irc
    answers.ircServer = "irc.libera.chat:6697"
    answers.ircNick = "awfulbot"
    answers.ircChannel = "#goons"
    answers.ircTLS = true
    answers.adminUser = "myaccount"
    answers.metricsListen = "off"
    answers.secretsInConfig = true
    let (configuration, secrets) = try SetupWizard.configuration(from: answers)
    #expect(secrets == [:])
    try configuration.validate(environment: [:])
    let irc = try #require(configuration.transports.first?.configuration(of: IRCPlugin.self))
    #expect(irc.host == "irc.libera.chat" && irc.port == 6697)
    #expect(irc.admins == ["myaccount"])
    #expect(configuration.metrics?.isEnabled == false)
    #expect(configuration.literalSecretPaths == ["forum.password"])
  }

  @Test("setup for Discord: the webhook URL goes to the environment file, the channel gets the relays, nobody is admin")
  func setupDiscord() throws {
    var answers = SetupAnswers()
    answers.forumUsername = "bot"
    answers.forumPassword = "pw"
    answers.transport = .discord
    answers.discordRoom = "goons"
    let url = "https://discord.com/api/webhooks/123456789012345678/abcDEF_ghi-JKL"
    answers.discordWebhook = url
    answers.metricsListen = "off"
    let (configuration, secrets) = try SetupWizard.configuration(from: answers)
    #expect(secrets["AWFULBOT_DISCORD_WEBHOOK"] == url)
    try configuration.validate(environment: secrets)
    #expect(configuration.rooms?.map(\.room) == ["goons"])
    #expect(configuration.rooms?.first?.subscriptions == [.bookmarks(stars: []), .announcements])
    #expect(configuration.roles == nil, "a relay-only transport has nobody to make admin")
    let written = String(decoding: try JSONEncoder().encode(configuration), as: UTF8.self)
    #expect(!written.contains("abcDEF_ghi-JKL"), "the token stays in the environment file: \(written)")
  }

  @Test("JSON logs: one object per line with level, label, message and metadata")
  func jsonLogs() throws {
    let lines = Mutex<[String]>([])
    var handler = JSONLogHandler(label: "awfulbot.test") { line in lines.withLock { $0.append(line) } }
    handler.logLevel = .debug
    handler[metadataKey: "transport"] = "irc"
    let logger = Logger(label: "awfulbot.test") { _ in handler }
    logger.info("poll finished", metadata: ["source": "bookmarks", "counts": ["1", "2"]])
    logger.trace("not shown")
    let captured = lines.withLock { $0 }
    #expect(captured.count == 1)
    let line = try #require(captured.first)
    #expect(!line.contains("\n"))
    let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    #expect(object["level"] as? String == "info")
    #expect(object["label"] as? String == "awfulbot.test")
    #expect(object["message"] as? String == "poll finished")
    #expect(object["source"] as? String == "bookmarks")
    #expect(object["transport"] as? String == "irc")
    #expect(object["counts"] as? [String] == ["1", "2"])
    #expect((object["time"] as? String)?.hasSuffix("Z") == true)
  }
}
