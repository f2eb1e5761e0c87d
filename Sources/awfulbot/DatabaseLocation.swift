import ArgumentParser
import AwfulBotApp

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
  func resolve() throws -> (path: String, configuration: AppConfiguration?) {
    if let database { return (database, nil) }
    do {
      let configuration = try AppConfiguration.loadIgnoringSecrets(path: config ?? "")
      return (configuration.databasePath, configuration)
    } catch let error as ConfigurationError {
      throw ValidationError("\(error)")
    }
  }
}
