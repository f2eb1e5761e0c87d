/// A configuration the transport cannot run with; every problem found is listed, each with its key.
package struct IRCConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
  package var keyedProblems: [IRCConfigurationProblem]

  package init(_ problems: [IRCConfigurationProblem]) { keyedProblems = problems }

  /// Each problem as `key: reason`.
  package var problems: [String] { keyedProblems.map(\.description) }

  package var description: String {
    "invalid IRC configuration: " + problems.joined(separator: "; ")
  }
}
