/// The shapes of Matrix identifiers the configuration may write: one set of rules for the transport's own
/// validation and for the config loader's messages.
package enum MatrixIdentifiers {
  /// `@localpart:server`.
  package static func isUserID(_ text: String) -> Bool {
    let parts = text.split(separator: ":", maxSplits: 1)
    return text.hasPrefix("@") && parts.count == 2 && parts[0].count > 1 && !parts[1].isEmpty
      && !text.contains(where: \.isWhitespace)
  }

  /// A room id (`!abc:example.org`, or from room version 12 on an opaque `!abc` without a server) or an alias
  /// (`#name:example.org`).
  package static func isRoom(_ text: String) -> Bool {
    guard !text.contains(where: \.isWhitespace) else { return false }
    if text.hasPrefix("!") { return text.count > 1 && !text.hasSuffix(":") }
    return isAlias(text)
  }

  /// `#name:server`.
  package static func isAlias(_ text: String) -> Bool {
    let parts = text.split(separator: ":", maxSplits: 1)
    return text.hasPrefix("#") && parts.count == 2 && parts[0].count > 1 && !parts[1].isEmpty
      && !text.contains(where: \.isWhitespace)
  }
}
