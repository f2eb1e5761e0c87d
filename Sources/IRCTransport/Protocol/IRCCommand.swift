/// An IRC command: a word of letters (`PRIVMSG`, normalised to upper case) or a three-digit numeric reply (`001`).
package struct IRCCommand: Sendable, Hashable, CustomStringConvertible {
  package let rawValue: String

  package init(_ text: String) throws(IRCParseError) {
    if text.utf8.count == 3, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
      rawValue = text
      return
    }
    guard !text.isEmpty,
      text.utf8.allSatisfy({
        ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
      })
    else { throw .invalidCommand(text) }
    rawValue = text.uppercased()
  }

  private init(known: String) { rawValue = known }

  /// The numeric value of a numeric reply (`433` → 433), nil for word commands.
  package var numeric: Int? {
    guard rawValue.utf8.count == 3, let first = rawValue.utf8.first, first >= UInt8(ascii: "0"),
      first <= UInt8(ascii: "9")
    else { return nil }
    return Int(rawValue)
  }

  package var description: String { rawValue }

  package static let privmsg = IRCCommand(known: "PRIVMSG")
  package static let notice = IRCCommand(known: "NOTICE")
  package static let ping = IRCCommand(known: "PING")
  package static let pong = IRCCommand(known: "PONG")
  package static let cap = IRCCommand(known: "CAP")
  package static let authenticate = IRCCommand(known: "AUTHENTICATE")
  package static let nick = IRCCommand(known: "NICK")
  package static let user = IRCCommand(known: "USER")
  package static let join = IRCCommand(known: "JOIN")
  package static let part = IRCCommand(known: "PART")
  package static let kick = IRCCommand(known: "KICK")
  package static let quit = IRCCommand(known: "QUIT")
  package static let mode = IRCCommand(known: "MODE")
  package static let invite = IRCCommand(known: "INVITE")
  package static let error = IRCCommand(known: "ERROR")
  package static let names = IRCCommand(known: "NAMES")
  package static let chghost = IRCCommand(known: "CHGHOST")
  package static let account = IRCCommand(known: "ACCOUNT")
  package static let monitor = IRCCommand(known: "MONITOR")
  package static let whois = IRCCommand(known: "WHOIS")

  /// A numeric reply by number (`.numeric(1)` is `001`).
  package static func numeric(_ value: Int) -> IRCCommand {
    let digits = String(value)
    return IRCCommand(known: String(repeating: "0", count: max(0, 3 - digits.count)) + digits)
  }
}
