/// The type of chat connection `transports[].type` names (`console`, `matrix`, `irc`): each is a plugin's
/// (`TransportPlugins.all`), which declares its own constant.
package struct TransportType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  package var rawValue: String

  package init(rawValue: String) { self.rawValue = rawValue }

  package var description: String { rawValue }

  /// "console, matrix, irc", for the error that names an unknown type.
  package static var supported: String { TransportPlugins.all.map { $0.type.rawValue }.joined(separator: ", ") }

  /// The type a person typed (`awfulbot setup`'s flag or prompt), in any case; nil for a type no plugin has. The
  /// config file's `type` is read as written.
  package init?(typed text: String) {
    guard let plugin = TransportPlugins.named(text.lowercased()) else { return nil }
    self = plugin.type
  }
}
