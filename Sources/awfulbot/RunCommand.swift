import ArgumentParser
import AwfulBotApp
import Foundation
import Logging

struct RunCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Runs the bot from a configuration file until SIGTERM or SIGINT.",
    discussion: """
      Migrates the database first. Exit status 78 (EX_CONFIG): the configuration is invalid or a chat service \
      refused the configured credentials (restarting cannot help); 75 (EX_TEMPFAIL): a chat service could not be \
      reached at start (a supervisor may restart later).
      """)

  @Option(name: .shortAndLong, help: "The JSON configuration file (see config.example.json).")
  var config: String

  @Option(help: "Log level: trace, debug, info, notice, warning, error, critical (default: the config's, else info).")
  var logLevel: String?

  @Option(help: "Log format: text or json (default: the config's, else text).")
  var logFormat: String?

  @Flag(
    help: """
      Replace the Matrix account's cross-signing identity when this database does not hold it and no recovery key \
      is given. Everyone in the bot's encrypted rooms then sees that its identity changed and must accept the new one.
      """)
  var resetMatrixIdentity = false

  func validate() throws {
    if let logLevel, Logger.Level(rawValue: logLevel) == nil {
      throw ValidationError("unknown log level '\(logLevel)'; use \(LoggingSettings.levels.joined(separator: ", "))")
    }
    if let logFormat, LoggingSettings.Format(rawValue: logFormat) == nil {
      throw ValidationError("unknown log format '\(logFormat)'; use text or json")
    }
  }

  func run() async throws {
    MemoryTuning.applyForDaemon()
    do {
      try await runBot(
        configurationPath: config, logLevel: logLevel.flatMap(Logger.Level.init(rawValue:)),
        logFormat: logFormat.flatMap(LoggingSettings.Format.init(rawValue:)), resetMatrixIdentity: resetMatrixIdentity)
    } catch {
      guard let code = StartupFailure.exitCode(for: error) else { throw error }
      FileHandle.standardError.write(Data("awfulbot: \(error)\n".utf8))
      // 78 is EX_CONFIG: systemd and supervisors read it as "fix the configuration, don't restart blindly".
      throw ExitCode(code)
    }
  }
}
