/// A configuration the transport cannot run with; every problem found is listed.
package struct IRCConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
  package var problems: [String]

  package var description: String {
    "invalid IRC configuration: " + problems.joined(separator: "; ")
  }
}
