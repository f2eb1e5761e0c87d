import ChatBridge

/// A Matrix configuration the transport cannot run with; every problem found is listed, each with its key
/// (`userID`, `rooms[1]`, `roleOverrides.@a:example.org`, `encryption.trust`; empty for the account as a whole).
package struct MatrixConfigurationError: ConfigProblems, Sendable, Hashable, CustomStringConvertible {
  package var keyedProblems: [ConfigProblem]

  package init(_ problems: [ConfigProblem]) { keyedProblems = problems }

  package var description: String {
    "invalid Matrix configuration: " + problems.joined(separator: "; ")
  }
}
