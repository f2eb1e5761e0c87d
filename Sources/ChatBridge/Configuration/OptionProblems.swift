/// An error that lists every problem of a configuration, each with its key (`IRCConfigurationError`,
/// `MatrixConfigurationError`): an object read inside another (`OptionReader.nested`) takes its problems and names
/// them under its own key.
package protocol OptionProblems: Error {
  var keyedProblems: [OptionProblem] { get }
}

extension OptionProblems {
  /// Each problem as `key: reason`.
  package var problems: [String] { keyedProblems.map(\.description) }
}
