import ArgumentParser
import AwfulBotApp
import Foundation

struct BackupCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "backup",
    abstract: "Copies the database with SQLite's online backup, also while the bot runs, and names what else to keep.",
    discussion: "The copy is consistent (one snapshot, Matrix encryption state included) and private (mode 0600). "
      + "It is a credential: it holds the forum login cookies and the Matrix access token in clear, so keep it as "
      + "you keep the forum password. It does not hold the Matrix pickle key and recovery key files, the config file or the secrets in the "
      + "environment: the command lists them, without their values. Restore with `awfulbot restore`.")

  @OptionGroup var location: DatabaseLocation

  @Option(help: "The new backup file (it must not exist), or a directory to get awfulbot-<UTC time>.sqlite in it.")
  var to: String

  func run() throws {
    LoggingSetup.bootstrap(level: .error)
    let (path, configuration) = try location.resolve()
    do {
      let outcome = try DatabaseBackup.backup(databasePath: path, to: to)
      let size = String(format: "%.1f MiB", Double(outcome.bytes) / 1_048_576)
      print("backed up \(path) to \(outcome.path) (\(size) in \(String(format: "%.1f", outcome.seconds)) s)")
      let advice = BackupAdvice.make(
        configuration: configuration, configurationPath: location.config, databasePath: path)
      for line in advice.lines { print(line) }
    } catch {
      FileHandle.standardError.write(Data("awfulbot backup: \(error)\n".utf8))
      throw ExitCode.failure
    }
  }
}
