/// One thing wrong with a configuration: the key path it is about as the config writes it (`nick`,
/// `channels[1].key`, `transports[2].encryption.trust`; empty for the object as a whole), what was wrong or expected
/// (`expected a whole number, got 2.5`), and for a misspelt key the known key it most likely meant. Every reader of
/// config reports these, so a problem reads the same whichever layer found it.
package struct ConfigProblem: Error, Sendable, Hashable, CustomStringConvertible {
  package var key: String
  package var reason: String
  /// The known key a misspelt one most likely meant (`ConfigKey.closest`).
  package var suggestion: String?

  package init(_ key: String, _ reason: String, suggestion: String? = nil) {
    self.key = key
    self.reason = reason
    self.suggestion = suggestion
  }

  /// `key: reason (did you mean "other"?)`, or the reason alone for the object as a whole.
  package var description: String {
    let said = reason + (suggestion.map { " (did you mean \"\($0)\"?)" } ?? "")
    return key.isEmpty ? said : "\(key): \(said)"
  }

  /// The top-level key (`channels` for `channels[1].key`), by which problems are put in the file's order.
  package var topKey: String { String(key.prefix { $0 != "." && $0 != "[" }) }

  /// The same problem one object further out: `trust` read inside `encryption` is `encryption.trust`.
  package func under(_ parent: String) -> ConfigProblem {
    var problem = self
    problem.key = parent.isEmpty ? key : key.isEmpty ? parent : ConfigKey.join(parent, key)
    return problem
  }

  /// Problems in the order of `keys` (the order a config file is best read in), those about the whole last; those of
  /// one key keep the order they were found in.
  package static func inOrder(_ problems: [ConfigProblem], keys: [String]) -> [ConfigProblem] {
    let order = Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    let ranked = problems.enumerated().map { (rank: order[$1.topKey] ?? Int.max, position: $0, problem: $1) }
    return ranked.sorted { ($0.rank, $0.position) < ($1.rank, $1.position) }.map(\.problem)
  }
}

/// An error that lists every problem of a configuration, each with its key (`IRCConfigurationError`,
/// `MatrixConfigurationError`): an object read inside another (`ConfigReader.nested`) takes its problems.
package protocol ConfigProblems: Error {
  var keyedProblems: [ConfigProblem] { get }
}

extension ConfigProblems {
  /// Each problem as `key: reason`.
  package var problems: [String] { keyedProblems.map(\.description) }
}

/// Where the readers of one whole configuration report (the application's read of its file), found in the decoder's
/// `userInfo` under `.configProblemSink`: every problem of every section at its full key path, in the order read.
package protocol ConfigProblemSink: AnyObject, Sendable {
  func report(_ problem: ConfigProblem)
}
