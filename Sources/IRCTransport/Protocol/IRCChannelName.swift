/// A channel name: starts with a channel prefix (`#`, `&`, `+`, `!`), at most 200 bytes, no spaces, commas, BEL or
/// control characters.
package struct IRCChannelName: Sendable, Hashable, IRCValidatedName {
  package let value: String

  package enum Invalid: Error, Sendable, Hashable, CustomStringConvertible {
    case notAChannel(String)
    case badCharacter(String)
    case tooLong(String)

    package var description: String {
      switch self {
      case .notAChannel(let name): "“\(name)” is not a channel name (it must start with #, &, + or !)"
      case .badCharacter(let name): "channel “\(name)” contains a space, comma or control character"
      case .tooLong(let name): "channel “\(name)” is longer than 200 bytes"
      }
    }
  }

  package static let prefixes: Set<Character> = ["#", "&", "+", "!"]

  package init(_ value: String) throws(Invalid) {
    guard let first = value.first, Self.prefixes.contains(first), value.count > 1 else { throw .notAChannel(value) }
    guard value.utf8.count <= 200 else { throw .tooLong(value) }
    guard value.unicodeScalars.allSatisfy({ $0 != " " && $0 != "," && $0.value > 0x1F && $0.value != 0x7F })
    else { throw .badCharacter(value) }
    self.value = value
  }

  /// The case-folded form: the room id the transport reports, so one channel is one room however it is spelt.
  package var folded: String { IRCCaseMapping.fold(value) }

  /// Whether a message target names a channel rather than a nick.
  package static func isChannel(_ target: String) -> Bool {
    target.first.map { prefixes.contains($0) } ?? false
  }
}
