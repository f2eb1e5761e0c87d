import ArgumentParser
import AwfulBotApp
import Foundation

/// `--config FILE` or `--database PATH`: where the tools that work on the database find it.
struct DatabaseLocation: ParsableArguments {
  @Option(name: .shortAndLong, help: "The JSON configuration file (its dataDirectory holds the database).")
  var config: String?

  @Option(help: "The database file itself (instead of --config).")
  var database: String?

  func validate() throws {
    if (config == nil) == (database == nil) { throw ValidationError("give --config FILE or --database PATH") }
  }

  /// The database path, and the configuration when one was given (secrets need not be set).
  ///
  /// - Parameter tolerant: a config that does not validate still names its database when its `dataDirectory` can be
  ///   read (for `status`, which must work while an operator fixes a broken edit the running bot refused); the
  ///   problems go to standard error.
  func resolve(tolerant: Bool = false) throws -> (path: String, configuration: AppConfiguration?) {
    if let database { return (database, nil) }
    let path = config ?? ""
    do {
      let configuration = try AppConfiguration.loadIgnoringSecrets(path: path)
      return (configuration.databasePath, configuration)
    } catch let error as ConfigurationError {
      guard tolerant, let database = AppConfiguration.databasePathIgnoringProblems(path: path) else {
        throw ValidationError("\(error)")
      }
      FileHandle.standardError.write(
        Data(
          ("awfulbot: \(path) does not validate (\(error.problems.count) problem(s), `awfulbot check` lists them); "
            + "reading the database it names\n").utf8))
      return (database, nil)
    }
  }
}
