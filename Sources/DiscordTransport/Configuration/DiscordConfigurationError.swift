/// Everything wrong with a Discord transport's settings, each problem at its key path (`rooms.general.webhook`), in
/// one error so `check` says it all at once. No sentence repeats a webhook URL: it holds the token.
package struct DiscordConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
  package struct Problem: Sendable, Hashable {
    package var key: String
    package var reason: String

    package init(_ key: String, _ reason: String) {
      self.key = key
      self.reason = reason
    }
  }

  package var problems: [Problem]

  package init(_ problems: [Problem]) { self.problems = problems }

  package var description: String {
    problems.map { "\($0.key): \($0.reason)" }.joined(separator: "; ")
  }
}
