import ArgumentParser
import AwfulBotApp
import Foundation

struct RestoreCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "restore",
    abstract: "Puts a backup in place of the database, keeping the replaced one aside; the bot must be stopped.",
    discussion: "Refuses while the bot runs (it holds the database's lock; the heartbeat of a bot from before the "
      + "lock), a file that is not a whole awfulbot database, and a backup from a newer version. A backup from an "
      + "older version is migrated by the next `run` (or `migrate`). The replaced database is kept as "
      + "<database>.before-restore-<UTC time>; what it sent since the backup is carried over so nothing goes out "
      + "twice, and chat services start over from now (no old command runs again; Matrix rooms get new keys).")

  @OptionGroup var location: DatabaseLocation

  @Argument(help: "The backup file (from `awfulbot backup`, a scheduled backup, or `migrate --backup`).")
  var backup: String

  @Flag(help: "Go on when the current database cannot be read to tell whether the bot runs (stop the bot first).")
  var force = false

  func run() throws {
    LoggingSetup.bootstrap(level: .error)
    let (path, configuration) = try location.resolve()
    do {
      let outcome = try BackupRestore.restore(backup: backup, databasePath: path, force: force)
      print("restored \(backup) to \(path)")
      if let aside = outcome.keptAside { print("the database it replaced is kept at \(aside)") }
      if let problem = outcome.carryOverProblem {
        print("nothing carried over from the replaced database: \(problem); messages it sent since may go out again")
      } else if outcome.keptAside != nil {
        print(
          "\(outcome.carriedOver) message(s) the replaced database sent since the backup carried over (none goes out "
            + "twice)")
      }
      if !outcome.pendingMigrations.isEmpty {
        print(
          "the backup is from an older version: the next `awfulbot run` (or `awfulbot migrate`) applies "
            + outcome.pendingMigrations.joined(separator: ", "))
      }
      // The database's encryption state is sealed with the key in these files: a newer key cannot open it.
      let kept = BackupAdvice.make(configuration: configuration, configurationPath: location.config, databasePath: path)
        .keptFiles
      if !kept.isEmpty {
        print("these must be the files kept with that backup: \(kept.map(\.path).joined(separator: ", "))")
      }
    } catch {
      FileHandle.standardError.write(Data("awfulbot restore: \(error)\n".utf8))
      throw ExitCode.failure
    }
  }
}
