import BotCore
import ChatBridge
import Foundation

/// `awfulbot setup`: asks for what a first configuration needs (or takes it from flags), writes the config file
/// (mode 0600) and, unless secrets go into the config, an environment file with them (for systemd's
/// `EnvironmentFile=` or `set -a; . FILE`), then tests the forum login with `awfulbot check`'s forum step.
package struct SetupWizard: Sendable {
  package var answers: SetupAnswers
  package var outputPath: String
  package var interactive: Bool
  package var overwrite: Bool
  package var testLogin: Bool
  private let prompter: SetupPrompter

  package init(
    answers: SetupAnswers, outputPath: String, interactive: Bool, overwrite: Bool = false, testLogin: Bool = true,
    prompter: SetupPrompter = SetupPrompter()
  ) {
    self.answers = answers
    self.outputPath = outputPath
    self.interactive = interactive
    self.overwrite = overwrite
    self.testLogin = testLogin
    self.prompter = prompter
  }

  /// What was written.
  package struct Outcome: Sendable {
    package var configurationPath: String
    package var environmentFilePath: String?
    package var loginCheck: CheckResult?
  }

  package func run() async throws -> Outcome {
    if FileManager.default.fileExists(atPath: outputPath), !overwrite {
      throw SetupError("\(outputPath) exists; pass --force to replace it")
    }
    var answers = self.answers
    try ask(&answers)
    let (configuration, secrets) = try Self.configuration(from: answers)
    var environment = ProcessInfo.processInfo.environment
    environment.merge(secrets) { _, new in new }
    try configuration.validate(environment: environment)

    let environmentPath = secrets.isEmpty ? nil : Self.environmentFilePath(for: outputPath)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    try Self.writePrivate(try encoder.encode(configuration) + Data("\n".utf8), to: outputPath)
    if let environmentPath {
      let lines = secrets.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n")
      try Self.writePrivate(Data((lines + "\n").utf8), to: environmentPath)
    }
    var loginCheck: CheckResult?
    if testLogin {
      loginCheck = await ConfigurationCheck(configurationPath: outputPath, environment: environment)
        .checkForum(configuration).login
    }
    return Outcome(configurationPath: outputPath, environmentFilePath: environmentPath, loginCheck: loginCheck)
  }

  /// Fills in every answer still missing: by asking when interactive, else by failing with the flag to pass.
  private func ask(_ answers: inout SetupAnswers) throws {
    func value(
      _ current: String?, _ question: String, flag: String, default fallback: String? = nil, secret: Bool = false
    )
      throws -> String
    {
      if let current, !current.isEmpty { return current }
      guard interactive else {
        if let fallback { return fallback }
        throw SetupError("missing \(flag) (or run setup in a terminal to be asked)")
      }
      while true {
        let answer = secret ? prompter.askSecret(question) : prompter.ask(question, default: fallback)
        if let answer, !answer.isEmpty { return answer }
        if let fallback { return fallback }
      }
    }
    answers.forumUsername = try value(
      answers.forumUsername, "Forum username of the bot's account", flag: "--forum-username")
    answers.forumPassword = try value(
      answers.forumPassword, "Forum password (not shown)", flag: "--forum-password-env", secret: true)
    answers.forumBaseURL = try value(
      answers.forumBaseURL, "Forum address", flag: "--forum-url", default: "https://forums.somethingawful.com/")
    answers.dataDirectory = try value(
      answers.dataDirectory, "Data directory (the database goes here)", flag: "--data", default: "/var/lib/awfulbot")
    let named = try value(
      answers.transport?.rawValue, "Chat: \(Self.transportChoices)", flag: "--transport", default: "matrix")
    guard let transport = TransportType(typed: named), Self.transportTypes.contains(transport) else {
      throw SetupError("unknown transport \"\(named)\": use \(Self.transportChoices)")
    }
    answers.transport = transport
    switch transport {
    case .matrix:
      answers.matrixHomeserver = try value(
        answers.matrixHomeserver, "Homeserver URL (https://matrix.example.org)", flag: "--matrix-homeserver")
      answers.matrixUserID = try value(
        answers.matrixUserID, "Bot's Matrix id (@awfulbot:example.org)", flag: "--matrix-user")
      answers.matrixAccessToken = try value(
        answers.matrixAccessToken, "Bot's access token (not shown)", flag: "--matrix-token-env", secret: true)
      answers.matrixRoom = try value(answers.matrixRoom, "Room to relay into (#room:example.org)", flag: "--room")
      answers.adminUser = try value(answers.adminUser, "Your Matrix id (gets the admin role)", flag: "--admin")
    case .irc:
      answers.ircServer = try value(
        answers.ircServer, "IRC server (host:port)", flag: "--irc-server", default: "irc.libera.chat:6697")
      answers.ircNick = try value(answers.ircNick, "Bot's nick", flag: "--irc-nick")
      answers.ircChannel = try value(answers.ircChannel, "Channel to relay into (#channel)", flag: "--room")
      answers.adminUser = try value(
        answers.adminUser, "Your services account or nick!user@host mask (gets admin)", flag: "--admin")
      if answers.ircTLS == nil { answers.ircTLS = !(answers.ircServer ?? "").hasSuffix(":6667") }
    case .discord:
      answers.discordRoom = try value(
        answers.discordRoom, "Name for the Discord channel in the config", flag: "--room", default: "general")
      answers.discordWebhook = try value(
        answers.discordWebhook, "The channel's webhook URL (Server Settings › Integrations › Webhooks; not shown)",
        flag: "--discord-webhook-env", secret: true)
    default:
      break
    }
    answers.metricsListen = try value(
      answers.metricsListen, "Metrics listener (host:port, or off)", flag: "--metrics",
      default: MetricsSettings.defaultListen.description)
  }

  /// The transport types setup asks about; others are written into the config by hand.
  package static let transportTypes: [TransportType] = [.console, .matrix, .irc, .discord]
  /// "console, matrix, irc, discord".
  package static var transportChoices: String { transportTypes.map(\.rawValue).joined(separator: ", ") }

  /// The configuration for the answers, and the secrets to put in the environment file (empty when they go into
  /// the configuration itself).
  package static func configuration(from answers: SetupAnswers) throws -> (AppConfiguration, [String: String]) {
    var secrets: [String: String] = [:]
    func secret(_ value: String?, variable: String) -> JSONValue {
      if answers.secretsInConfig { return .string(value ?? "") }
      secrets[variable] = value ?? ""
      return .object(["env": .string(variable)])
    }
    let passwordVariable = AppConfiguration.ForumSettings.passwordVariable
    if !answers.secretsInConfig { secrets[passwordVariable] = answers.forumPassword ?? "" }

    var rooms: [AppConfiguration.RoomSettings] = []
    var roles: [AppConfiguration.RoleGrant] = []
    let subscriptions: [RoomSubscriptionSpec] = [.bookmarks(stars: []), .announcements]
    // Each transport is named after its type: one of each at most.
    let transport = answers.transport ?? .console
    guard Self.transportTypes.contains(transport) else {
      throw SetupError(
        "setup writes \(Self.transportChoices) transports; "
          + "write a \(transport) transport into the config by hand (see config.example.json)")
    }
    let name = transport.rawValue
    var entry: [String: JSONValue] = ["type": .string(name), "name": .string(name)]
    switch transport {
    case .matrix:
      let room = answers.matrixRoom ?? ""
      entry.merge([
        "homeserver": .string(answers.matrixHomeserver ?? ""), "userID": .string(answers.matrixUserID ?? ""),
        "accessToken": secret(answers.matrixAccessToken, variable: "AWFULBOT_MATRIX_ACCESS_TOKEN"),
        "rooms": .array([.string(room)]),
      ]) { _, new in new }
      rooms.append(.init(transport: name, room: room, subscriptions: subscriptions, mode: .each))
      if let admin = answers.adminUser { roles.append(.init(transport: name, user: admin, role: .admin)) }
    case .irc:
      let channel = answers.ircChannel ?? ""
      entry.merge([
        "server": .string(answers.ircServer ?? ""), "nick": .string(answers.ircNick ?? ""),
        "tls": .bool(answers.ircTLS ?? true), "channels": .array([.string(channel)]),
      ]) { _, new in new }
      if let admin = answers.adminUser { entry["admins"] = .array([.string(admin)]) }
      rooms.append(.init(transport: name, room: channel, subscriptions: subscriptions, mode: .each))
    case .discord:
      // Relay only: nobody gives commands there, so there is no admin to name; the room's subscriptions are the
      // config's.
      let room = answers.discordRoom ?? "general"
      entry["rooms"] = .object([
        room: .object(["webhook": secret(answers.discordWebhook, variable: "AWFULBOT_DISCORD_WEBHOOK")])
      ])
      rooms.append(.init(transport: name, room: room, subscriptions: subscriptions, mode: .each))
    default:
      rooms.append(.init(transport: name, room: "console", subscriptions: subscriptions, mode: .each))
      roles.append(.init(transport: name, user: "console:operator", role: .admin))
    }
    let transports = [try read(TransportSettings.self, .object(entry), as: "transports[0]")]
    // The forum and metrics answers are read by the sections' own readers, as the file will be: one set of checks,
    // and a problem names the key it ends up in.
    var forumAnswers: [String: JSONValue] = [
      "username": .string(answers.forumUsername ?? ""),
      "password": answers.secretsInConfig
        ? .string(answers.forumPassword ?? "") : .object(["env": .string(passwordVariable)]),
      "timeZone": .string(answers.forumTimeZone ?? "America/Chicago"), "requestSpacingSeconds": 1,
    ]
    if let text = answers.forumBaseURL { forumAnswers["baseURL"] = .string(text) }
    let forum = try read(AppConfiguration.ForumSettings.self, .object(forumAnswers), as: "forum")
    var metricsAnswers: [String: JSONValue] = ["enabled": .bool(answers.metricsListen != "off")]
    if let text = answers.metricsListen, text != "off" { metricsAnswers["listen"] = .string(text) }
    let metrics = try read(MetricsSettings.self, .object(metricsAnswers), as: "metrics")
    let configuration = AppConfiguration(
      forum: forum, dataDirectory: answers.dataDirectory,
      polling: .init(bookmarksSeconds: 60, announcementsSeconds: 1800, forumsSeconds: 300),
      commands: .init(prefix: "!", botName: "awfulbot"), transports: transports, roles: roles.isEmpty ? nil : roles,
      rooms: rooms, logging: LoggingSettings(level: .info, format: .text), metrics: metrics)
    return (configuration, secrets)
  }

  /// A section of the answers read by its type's reader (secrets are checked later, with the environment file's);
  /// its problems become a `SetupError` naming the key the answer goes to, as `check` would:
  /// `forum.baseURL: expected an http(s) URL, got "x"`.
  private static func read<T: Decodable>(_ type: T.Type, _ json: JSONValue, as section: String) throws -> T {
    do {
      return try ConfigurationDecoding.decode(
        T.self, from: JSONEncoder().encode(json), environment: [:], checksSecrets: false)
    } catch let error as ConfigurationError {
      throw SetupError(error.problems.map { "\(section).\($0)" }.joined(separator: "; "))
    }
  }

  /// `bot.json` → `bot.env`.
  package static func environmentFilePath(for configurationPath: String) -> String {
    let url = URL(fileURLWithPath: configurationPath)
    return url.deletingPathExtension().appendingPathExtension("env").path
  }

  private static func writePrivate(_ data: Data, to path: String) throws {
    let manager = FileManager.default
    if manager.fileExists(atPath: path) { try manager.removeItem(atPath: path) }
    guard manager.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600]) else {
      throw SetupError("cannot write \(path)")
    }
  }
}

package struct SetupError: Error, Sendable, CustomStringConvertible {
  package var description: String
  package init(_ description: String) { self.description = description }
}
