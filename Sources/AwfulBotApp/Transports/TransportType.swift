/// The types of chat connection the config's `transports[].type` may name.
package enum TransportType: String, Sendable, Hashable, CaseIterable {
  case console
  case matrix
  case irc

  /// "console, matrix, irc", for the error that names an unknown type.
  package static var supported: String { allCases.map(\.rawValue).joined(separator: ", ") }

  /// The type a person typed (`awfulbot setup`'s flag or prompt), in any case; nil for anything else. The config
  /// file's `type` is read as written.
  package init?(typed text: String) {
    self.init(rawValue: text.lowercased())
  }
}
