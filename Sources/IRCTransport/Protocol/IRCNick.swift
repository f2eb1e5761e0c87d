/// A nickname the bot may use: 1–30 characters, no spaces, not starting with a digit, `-`, a channel prefix or `:`,
/// and none of the characters that separate prefixes and lists (`!@*?,.`).
package struct IRCNick: Sendable, Hashable, IRCValidatedName {
  package let value: String

  package enum Invalid: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    case tooLong(String)
    case badCharacter(String)

    package var description: String {
      switch self {
      case .empty: "a nick cannot be empty"
      case .tooLong(let nick): "nick “\(nick)” is longer than 30 characters"
      case .badCharacter(let nick): "nick “\(nick)” contains a character IRC does not allow in nicks"
      }
    }
  }

  package init(_ value: String) throws(Invalid) {
    guard let first = value.unicodeScalars.first else { throw .empty }
    guard value.unicodeScalars.count <= 30 else { throw .tooLong(value) }
    let forbidden: Set<Unicode.Scalar> = [" ", "!", "@", "*", "?", ",", ".", ":", "#", "&", "$", "+", "%", "~"]
    let forbiddenFirst: Set<Unicode.Scalar> = ["-", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]
    guard !forbiddenFirst.contains(first),
      value.unicodeScalars.allSatisfy({ !forbidden.contains($0) && $0.value > 0x20 && $0.value != 0x7F })
    else { throw .badCharacter(value) }
    self.value = value
  }

  /// The case-folded form used to compare nicks (RFC 1459 casemapping, the IRC default).
  package var folded: String { IRCCaseMapping.fold(value) }
}
