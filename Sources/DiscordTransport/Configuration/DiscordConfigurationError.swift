import ChatBridge

/// Everything wrong with a Discord transport's settings, each problem at its key path (`rooms.general.webhook`), in
/// one error so `check` says it all at once. No sentence repeats a webhook URL: it holds the token.
package struct DiscordConfigurationError: ConfigProblems, Sendable, Hashable, CustomStringConvertible {
  package var keyedProblems: [ConfigProblem]

  package init(_ problems: [ConfigProblem]) { keyedProblems = problems }

  package var description: String { problems.joined(separator: "; ") }
}
