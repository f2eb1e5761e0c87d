/// The forum account the bot logs in as.
package struct ForumCredentials: Sendable, Hashable {
  package var username: String
  package var password: String

  package init(username: String, password: String) {
    self.username = username
    self.password = password
  }
}

extension ForumCredentials: CustomStringConvertible, CustomDebugStringConvertible {
  /// Never shows the password, so logging a configuration cannot leak it.
  package var description: String { "ForumCredentials(username: \(username), password: <redacted>)" }
  package var debugDescription: String { description }
}
