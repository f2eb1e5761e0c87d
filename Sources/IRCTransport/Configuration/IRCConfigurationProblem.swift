/// One thing wrong with an IRC configuration, with the key it is about as the config writes it (`nick`,
/// `channels[1].key`, `sasl.account`; empty for the connection as a whole), so the application can name the key
/// path in its own file (`transports[2].channels[1].key`).
package struct IRCConfigurationProblem: Sendable, Hashable, CustomStringConvertible {
  package var key: String
  package var reason: String

  package init(_ key: String, _ reason: String) {
    self.key = key
    self.reason = reason
  }

  package var description: String { key.isEmpty ? reason : "\(key): \(reason)" }

  /// The top-level key (`channels` for `channels[1].key`), by which problems are put in the file's order.
  package var topKey: String { String(key.prefix { $0 != "." && $0 != "[" }) }
}
