import ChatBridge

/// A configuration the transport cannot run with; every problem found is listed, each with its key.
package struct IRCConfigurationError: OptionProblems, Sendable, Hashable, CustomStringConvertible {
  package var keyedProblems: [OptionProblem]

  package init(_ problems: [OptionProblem]) { keyedProblems = problems }

  package var description: String {
    "invalid IRC configuration: " + problems.joined(separator: "; ")
  }
}
