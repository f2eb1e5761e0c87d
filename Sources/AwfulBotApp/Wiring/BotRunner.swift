import BotStore
import Foundation
import Logging

/// `awfulbot run --config FILE`: loads the configuration, sets up logging (the flags win over the config) and
/// metrics, builds the transports and the bot, seeds the configured rooms and runs until SIGTERM or SIGINT.
/// A `ConfigurationError` comes out before anything starts, for the caller to exit with `EX_CONFIG`.
package func runBot(
  configurationPath: String, logLevel: Logger.Level? = nil, logFormat: LoggingSettings.Format? = nil,
  resetMatrixIdentity: Bool = false
) async throws {
  let loaded = try AppConfiguration.loadReportingWarnings(path: configurationPath)
  let configuration = loaded.configuration
  LoggingSetup.bootstrap(
    level: logLevel ?? configuration.effectiveLogLevel, format: logFormat ?? configuration.logging?.format)
  AppMetrics.bootstrap()
  let logger = Logger(label: "awfulbot")
  for warning in loaded.warnings {
    logger.warning("configuration warning", metadata: ["warning": "\(warning)"])
  }
  // A console transport owns the terminal: no progress line over its chat.
  let progress = ProgressReporter(
    enabled: !configuration.transports.contains { $0.type == ConsolePlugin.type } && ProgressReporter.isTerminal)
  // Held until the bot stops: `restore` and a second `run` on this database check it (see `DatabaseLock`).
  let databasePath = try BotApplication.databasePath(for: configuration)
  let lock = try DatabaseLock.acquire(databasePath: databasePath)
  defer { withExtendedLifetime(lock) {} }
  // Whether the last run crashed decides whether the messages it had in hand count a death (see `CrashWitness`).
  let previousRunCrashed = CrashWitness.arm(databasePath: databasePath)
  // The transports are built by the application, over its database (the Matrix session and sync position live there).
  let application = try BotApplication(
    configuration: configuration,
    transportContext: TransportBuildContext(logger: logger, resetMatrixIdentity: resetMatrixIdentity), logger: logger,
    progress: progress, previousRunCrashed: previousRunCrashed)
  logger.info(
    "starting",
    metadata: [
      "version": "\(AppInfo.version)", "database": "\(configuration.databasePath)",
      "transports": "\(configuration.transports.map(\.resolvedName).joined(separator: ","))",
      "metrics": "\(application.metricsServer.map { "\($0.address)" } ?? "off")",
    ])
  try await application.seedRooms()
  try await application.run(reloadingFrom: configurationPath)
  logger.info("stopped")
}
