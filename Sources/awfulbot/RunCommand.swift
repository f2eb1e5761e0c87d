import ArgumentParser
import AwfulBotApp
import Foundation

struct RunCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run", abstract: "Runs the bot from a configuration file until SIGTERM or SIGINT.")

  @Option(name: .shortAndLong, help: "The JSON configuration file (see config.example.json).")
  var config: String

  @Option(help: "Log level: trace, debug, info, notice, warning, error.")
  var logLevel: String?

  func run() async throws {
    LoggingSetup.bootstrap(level: logLevel ?? "info")
    do {
      try await runBot(configurationPath: config)
    } catch let error as ConfigurationError {
      FileHandle.standardError.write(Data("awfulbot: \(error)\n".utf8))
      // 78 is EX_CONFIG: systemd and supervisors read it as "fix the configuration, don't restart blindly".
      throw ExitCode(78)
    }
  }
}
