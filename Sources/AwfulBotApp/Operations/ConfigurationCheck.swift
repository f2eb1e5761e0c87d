import BotStore
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
    add(await checkForum(configuration))
    for (index, settings) in configuration.transports.enumerated() {
      add(await checkTransport(settings, at: "transports[\(index)]"))
      if let encryption = MatrixEncryptionCheck.result(
        settings: settings, databasePath: configuration.databasePath, environment: environment)
      {
        add(encryption)
      }
    }
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
      var detail = "\(path) opens (\(rooms) rooms, \(subscriptions) subscriptions)"
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

  /// Logs in with a throwaway session and reads the first bookmarks page.
  package func checkForum(_ configuration: AppConfiguration) async -> CheckResult {
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
      return CheckResult(.fail, name, detail: "\(error)", fix: "set the forum password")
    }
    let result = await logIn(client, configuration: configuration)
    try? await client.shutdown()
    return result
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
    case .banned, .probation: "the account itself is restricted; nothing in the config can fix that"
    case .transport, .timedOut, .tooManyRedirects: "check forum.baseURL, DNS and outbound HTTPS from this host"
    case .pageNotUnderstood:
      "the forum's pages changed: save the page and run `awfulbot scrape FILE` (README: Troubleshooting)"
    case .http, .databaseUnavailable: "the forum is having trouble; try again later"
    default: "see the README's Troubleshooting section"
    }
  }

  private func checkTransport(_ settings: TransportSettings, at path: String) async -> CheckResult {
    let name = "transport \(settings.resolvedName) (\(settings.type))"
    guard let kind = TransportKind.named(settings.type) else {
      return CheckResult(.fail, name, detail: "unknown type")
    }
    guard let probe = kind.probe else {
      return CheckResult(.skip, name, detail: "this build cannot probe \(settings.type) transports yet")
    }
    var result = await probe(
      settings, TransportBuildContext(environment: environment, logger: logger, settingsPath: path))
    result.name = name
    return result
  }

  private func checkMetrics(_ configuration: AppConfiguration) -> CheckResult {
    guard let metrics = configuration.metrics, metrics.isEnabled, let address = metrics.address else {
      return CheckResult(.skip, "metrics", detail: "off")
    }
    return CheckResult(
      .pass, "metrics", detail: "will listen on http://\(address)/metrics (/healthz, /readyz)")
  }
}
