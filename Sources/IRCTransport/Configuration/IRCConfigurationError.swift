import ChatBridge

/// A configuration the transport cannot run with; every problem found is listed, each with its key.
package struct IRCConfigurationError: ConfigProblems, Sendable, Hashable, CustomStringConvertible {
  package var keyedProblems: [ConfigProblem]

  package init(_ problems: [ConfigProblem]) { keyedProblems = problems }

  package var description: String {
    "invalid IRC configuration: " + problems.joined(separator: "; ")
  }
}
