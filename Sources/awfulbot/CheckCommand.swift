import ArgumentParser
import AwfulBotApp
import Foundation

struct CheckCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract:
      "Checks a configuration: validates it, logs in to the forum, reaches each chat server, opens the database.",
    discussion: "Prints one line per check (✓ works, ✗ does not, with the fix). Exit status 1 when any check fails.")

  @Option(name: .shortAndLong, help: "The JSON configuration file.")
  var config: String

  func run() async throws {
    LoggingSetup.bootstrap(level: .critical)
    let results = await ConfigurationCheck(configurationPath: config).run { result in print(result.line) }
    let failures = results.filter { $0.outcome == .fail }.count
    if failures > 0 {
      print("\(failures) check(s) failed")
      throw ExitCode.failure
    }
    print("all checks passed")
  }
}
