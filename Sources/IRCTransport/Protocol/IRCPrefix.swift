/// Where a message comes from: a server name, or a user as `nick!user@host` (user and host may be missing).
package struct IRCPrefix: Sendable, Hashable, CustomStringConvertible {
  /// The nick, or the server name when the prefix is a server.
  package var name: String
  package var user: String?
  package var host: String?

  package init(name: String, user: String? = nil, host: String? = nil) {
    self.name = name
    self.user = user
    self.host = host
  }

  /// Parses the part after the leading `:`.
  package init(parsing text: Substring) throws(IRCParseError) {
    guard !text.isEmpty, !text.contains(" ") else { throw .invalidPrefix(String(text)) }
    var rest = text
    var host: Substring?
    var user: Substring?
    if let at = rest.firstIndex(of: "@") {
      host = rest[rest.index(after: at)...]
      rest = rest[..<at]
    }
    if let bang = rest.firstIndex(of: "!") {
      user = rest[rest.index(after: bang)...]
      rest = rest[..<bang]
    }
    guard !rest.isEmpty else { throw .invalidPrefix(String(text)) }
    self.init(name: String(rest), user: user.map(String.init), host: host.map(String.init))
  }

  /// `nick!user@host` as far as it is known.
  package var description: String {
    var text = name
    if let user { text += "!" + user }
    if let host { text += "@" + host }
    return text
  }

  /// A server prefix has a dot in its name and no user or host; a nick never contains a dot.
  package var isServer: Bool { user == nil && host == nil && name.contains(".") }
}
