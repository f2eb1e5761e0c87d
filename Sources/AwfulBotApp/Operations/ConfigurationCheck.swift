import BotStore
import ChatBridge
import ForumModel
import ForumsClient
import Foundation
import Logging

/// `awfulbot check --config FILE`: validates the configuration, then tries everything the bot will need — the data
/// directory and database, a forum login, each chat connection — and says for each whether it works and, if not,
/// what to do. Changes nothing: the login uses a throwaway session and the database is opened read-only.
package struct ConfigurationCheck: Sendable {
  package var configurationPath: String
  package var environment: [String: String]
  package var logger: Logger
  /// How long the forum check waits for a TCP connection (a firewalled host would otherwise hang the check).
  package var connectTimeout: Duration = .seconds(10)

  package init(
    configurationPath: String, environment: [String: String] = ProcessInfo.processInfo.environment,
    logger: Logger = Logger(label: "awfulbot.check")
  ) {
    self.configurationPath = configurationPath
    self.environment = environment
    self.logger = logger
  }

  /// Runs every check, reporting each result as it is known (`report`) and returning all of them.
  @discardableResult
  package func run(report: @Sendable (CheckResult) -> Void = { _ in }) async -> [CheckResult] {
    var results: [CheckResult] = []
    func add(_ result: CheckResult) {
      results.append(result)
      report(result)
    }
    let loaded: LoadedConfiguration
    do {
      loaded = try AppConfiguration.loadReportingWarnings(path: configurationPath, environment: environment)
    } catch let error as ConfigurationError {
      for problem in error.problems {
        add(CheckResult(.fail, "config", detail: problem, fix: Self.fix(forProblem: problem, path: configurationPath)))
      }
      add(CheckResult(.skip, "everything else", detail: "not checked until the configuration is valid"))
      return results
    } catch {
      add(CheckResult(.fail, "config", detail: "\(error)"))
      return results
    }
    let configuration = loaded.configuration
    add(
      CheckResult(
        .pass, "config",
        detail: "\(configurationPath) is valid (\(configuration.transports.count) transport(s), "
          + "\(configuration.rooms?.count ?? 0) room(s))"))
    for warning in loaded.warnings {
      add(CheckResult(.warn, "config permissions", detail: warning, fix: "chmod 600 \(configurationPath)"))
    }
    add(checkDataDirectory(configuration))
    add(checkDatabase(configuration))
    let forum = await checkForum(configuration)
    add(forum.login)
    if let probation = forum.probation { add(probation) }
    for (index, settings) in configuration.transports.enumerated() {
      add(await checkTransport(settings, at: "transports[\(index)]"))
      let rooms = Self.namedRooms(on: settings.resolvedName, in: configuration)
      for line in await checkTransportState(settings, rooms: rooms, databasePath: configuration.databasePath) {
        add(line)
      }
    }
    for result in await checkPrivateMessageRooms(configuration) { add(result) }
    for result in PermissionTable.results(for: configuration) { add(result) }
    add(checkMetrics(configuration))
    return results
  }

  private func checkDataDirectory(_ configuration: AppConfiguration) -> CheckResult {
    let directory = configuration.dataDirectory ?? FileManager.default.currentDirectoryPath
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else {
        return CheckResult(
          .fail, "data directory", detail: "\(directory) is a file", fix: "point dataDirectory at a directory")
      }
      guard FileManager.default.isWritableFile(atPath: directory) else {
        return CheckResult(
          .fail, "data directory", detail: "\(directory) is not writable by this user",
          fix: "chown it to the bot's user, or run as that user (systemd: StateDirectory=awfulbot)")
      }
      return CheckResult(.pass, "data directory", detail: "\(directory) is writable")
    }
    let parent = URL(fileURLWithPath: directory).deletingLastPathComponent().path
    guard FileManager.default.isWritableFile(atPath: parent) else {
      return CheckResult(
        .fail, "data directory", detail: "\(directory) does not exist and \(parent) is not writable",
        fix: "create \(directory) for the bot's user")
    }
    return CheckResult(.pass, "data directory", detail: "\(directory) will be created on the first run")
  }

  private func checkDatabase(_ configuration: AppConfiguration) -> CheckResult {
    let path = configuration.databasePath
    guard FileManager.default.fileExists(atPath: path) else {
      return CheckResult(.pass, "database", detail: "\(path) will be created on the first run")
    }
    do {
      let database = try ReadOnlyDatabase(path: path)
      defer { try? database.close() }
      let state = try database.migrationState()
      let (rooms, subscriptions) = try database.read { tx in
        (try tx.allRooms().count, try tx.allSubscriptions().count)
      }
      var detail =
        "\(path) opens (\(NameList.count(rooms, "room")), \(NameList.count(subscriptions, "subscription")))"
      if !state.pending.isEmpty {
        detail += "; \(state.pending.count) migration(s) will run at start (\(state.pending.joined(separator: ", ")))"
      }
      return CheckResult(.pass, "database", detail: detail)
    } catch {
      return CheckResult(
        .fail, "database", detail: "\(path) cannot be opened: \(error)",
        fix: "check the file's owner and mode (0600, the bot's user), or restore it from a backup")
    }
  }

  /// Logs in with a throwaway session and reads the first bookmarks page; a probation banner on that page is a
  /// warning of its own (the login works, and so does reading; posting does not).
  package func checkForum(_ configuration: AppConfiguration) async -> (login: CheckResult, probation: CheckResult?) {
    let name = "forum login"
    let client: ForumsClient
    do {
      var clientConfiguration = try configuration.forum.clientConfiguration(environment: environment)
      // One attempt is enough to tell; the daemon retries, the check should answer quickly.
      clientConfiguration.retry.maxAttempts = 1
      clientConfiguration.connectTimeout = connectTimeout
      client = ForumsClient(
        configuration: clientConfiguration, cookieStore: InMemoryCookieStore(), logger: logger)
    } catch {
      return (CheckResult(.fail, name, detail: "\(error)", fix: "set the forum password"), nil)
    }
    let result = await logIn(client, configuration: configuration)
    let probation = await client.probation
    try? await client.shutdown()
    return (result, probation.map { Self.probationResult($0, timeZone: configuration.chatTimeZone) })
  }

  /// `! forum account: on probation until …`: reading and relaying go on, posting is refused until it ends.
  static func probationResult(_ probation: Probation, timeZone: TimeZone?) -> CheckResult {
    let zone = timeZone ?? .gmt
    let end =
      probation.until.map { " until \(DateText(timeZone: zone).format($0))" } ?? probation.untilRaw.map {
        " until \($0)"
      } ?? ""
    return CheckResult(
      .warn, "forum account",
      detail: "on probation\(end): the bot reads and relays as usual, but reply and pmreply are refused until it ends",
      fix:
        "nothing in the config can change it; wait for the probation to end (the forum's banner: \(probation.message))")
  }

  private func logIn(_ client: ForumsClient, configuration: AppConfiguration) async -> CheckResult {
    let name = "forum login"
    do {
      let index = try await client.logIn()
      let bookmarks = try await client.bookmarks(page: 1)
      let pages = bookmarks.page?.total ?? 1
      let user = index.user?.name ?? configuration.forum.username
      return CheckResult(
        .pass, name,
        detail: "logged in to \(client.baseURL.host ?? client.baseURL.absoluteString) as \(user); bookmarks page 1 of "
          + "\(pages) lists \(bookmarks.threads.count) threads")
    } catch let error as ForumsClientError {
      return CheckResult(.fail, name, detail: error.description, fix: Self.fix(for: error))
    } catch {
      return CheckResult(
        .fail, name, detail: "\(error)", fix: "run with --log-level debug and see the README's Troubleshooting")
    }
  }

  static func fix(forProblem problem: String, path: String) -> String {
    if let start = problem.range(of: "<secret from $")?.upperBound, let end = problem[start...].firstIndex(of: ">") {
      let variable = problem[start..<end]
      return
        "export \(variable)=… before running (systemd: put it in the EnvironmentFile, see deploy/awfulbot.env.example)"
    }
    return "edit \(path) (every key is described in config.example.json)"
  }

  static func fix(for error: ForumsClientError) -> String {
    switch error {
    case .badCredentials, .loggedOut: "check forum.username and forum.password (log in with a browser to be sure)"
    case .banned: "the account itself is banned; nothing in the config can fix that"
    case .probation:
      "the account is on probation: it can read but not post until it ends; nothing in the config can fix that"
    case .transport, .timedOut, .tooManyRedirects: "check forum.baseURL, DNS and outbound HTTPS from this host"
    case .pageNotUnderstood:
      "the forum's pages changed: save the page and run `awfulbot scrape FILE` (README: Troubleshooting)"
    case .http, .databaseUnavailable: "the forum is having trouble; try again later"
    default: "see the README's Troubleshooting section"
    }
  }

  private func checkTransport(_ settings: TransportSettings, at path: String) async -> CheckResult {
    let name = "transport \(settings.resolvedName) (\(settings.type.rawValue))"
    var result = await settings.probe(
      context: TransportBuildContext(logger: logger, settingsPath: path))
    result.name = name
    return result
  }

  /// The rooms the config names on one transport, as written, each with whether it is a private-message room.
  static func namedRooms(on transport: String, in configuration: AppConfiguration) -> [String: Bool] {
    var rooms: [String: Bool] = [:]
    for room in ConfiguredRoom.named(in: configuration) where room.transport == transport {
      rooms[room.room, default: false] = rooms[room.room, default: false] || room.purpose == .privateMessages
    }
    return rooms
  }

  /// What the transport says about the state it keeps (Matrix: its encryption keys and published identity, and what
  /// the aliases among `rooms` stand for), read from the database without changing it.
  private func checkTransportState(_ settings: TransportSettings, rooms: [String: Bool], databasePath: String) async
    -> [CheckResult]
  {
    let dataDirectory = URL(fileURLWithPath: databasePath).deletingLastPathComponent()
    let context = TransportBuildContext(logger: logger, dataDirectory: dataDirectory)
    guard FileManager.default.fileExists(atPath: databasePath) else {
      return await settings.checkState(stored: nil, rooms: rooms, context: context)
    }
    let database: ReadOnlyDatabase
    do {
      database = try ReadOnlyDatabase(path: databasePath)
    } catch {
      return [CheckResult(.fail, "state \(settings.resolvedName)", detail: "the database cannot be read: \(error)")]
    }
    defer { try? database.close() }
    let stored = ReadOnlyStateStore(database: database, transport: settings.resolvedName)
    return await settings.checkState(stored: stored, rooms: rooms, context: context)
  }

  /// Private messages are private: a room they are told in should hold the configured admins only. Warns, per
  /// room, when the service shows other members, and says so when it cannot tell.
  func checkPrivateMessageRooms(_ configuration: AppConfiguration) async -> [CheckResult] {
    var results: [CheckResult] = []
    // The transports' saved state, read only (a Matrix alias is asked about as the room it is pinned to).
    let database =
      FileManager.default.fileExists(atPath: configuration.databasePath)
      ? try? ReadOnlyDatabase(path: configuration.databasePath) : nil
    defer { try? database?.close() }
    for (index, room) in (configuration.privateMessages?.rooms ?? []).enumerated() {
      let name = "private messages to \(room.transport) \(room.room)"
      let path = "privateMessages.rooms[\(index)]"
      guard let settings = configuration.transports.first(where: { $0.resolvedName == room.transport }) else {
        continue
      }
      let admins = Set(
        (configuration.roles ?? []).filter { $0.transport == room.transport && $0.role == .admin }.map(\.user))
      do {
        let people: [String]
        switch try await settings.roomMembers(
          room.room, stored: database.map { ReadOnlyStateStore(database: $0, transport: room.transport) },
          context: TransportBuildContext(logger: logger, settingsPath: path))
        {
        case .members(let members):
          people = members
        case .unknownBeforeJoining:
          results.append(
            CheckResult(
              .skip, name,
              detail: "\(room.transport) cannot tell who is in the room before the bot joins; "
                + "make sure only admins are"))
          continue
        case .cannotAsk(let why):
          results.append(
            CheckResult(.skip, name, detail: "cannot tell who is in the room \(why); make sure only admins are"))
          continue
        }
        let others = people.filter { !admins.contains($0) }
        if others.isEmpty {
          results.append(CheckResult(.pass, name, detail: "only configured admins are in the room"))
        } else {
          let names =
            others.prefix(5).joined(separator: ", ") + (others.count > 5 ? " and \(others.count - 5) more" : "")
          results.append(
            CheckResult(
              .warn, name,
              detail: "\(NameList.count(others.count, "member")) of the room \(others.count == 1 ? "is" : "are") "
                + "not a configured admin (\(names)); they will see who writes to the bot account and about what",
              fix: "use a room with only the admins in it, or give them the admin role in roles[]"))
        }
      } catch {
        results.append(
          CheckResult(.warn, name, detail: "could not list the room's members: \(error)", fix: "check \(path).room"))
      }
    }
    return results
  }

  private func checkMetrics(_ configuration: AppConfiguration) -> CheckResult {
    guard let metrics = configuration.metrics, metrics.isEnabled else {
      return CheckResult(.skip, "metrics", detail: "off")
    }
    return CheckResult(
      .pass, "metrics", detail: "will listen on http://\(metrics.address)/metrics (/healthz, /readyz)")
  }
}
