import ArgumentParser
import AwfulBotApp
import Foundation

struct MigrateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "migrate",
    abstract: "Brings the database schema up to this version (`run` does it too), optionally after a backup.")

  @OptionGroup var location: DatabaseLocation

  @Option(help: "First copy the database here with SQLite's online backup (the file must not exist).")
  var backup: String?

  func run() throws {
    LoggingSetup.bootstrap(level: .error)
    let (path, _) = try location.resolve()
    do {
      let outcome = try DatabaseMaintenance.migrate(databasePath: path, backupPath: backup)
      if let backup = outcome.backupPath { print("backed up \(path) to \(backup)") }
      if outcome.newlyApplied.isEmpty {
        print("\(path) is up to date (\(outcome.applied.count) migrations: \(outcome.applied.joined(separator: ", ")))")
      } else {
        print("applied \(outcome.newlyApplied.joined(separator: ", ")) to \(path)")
      }
    } catch {
      FileHandle.standardError.write(Data("awfulbot migrate: \(error)\n".utf8))
      throw ExitCode.failure
    }
  }
}
