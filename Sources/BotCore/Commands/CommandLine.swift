import ChatBridge
import Foundation

/// A command as typed: its name (lower-cased) and its arguments, with the raw text after each argument kept so
/// free text (`reply <thread> <text>`) reaches the handler exactly as written.
package struct CommandInput: Sendable, Hashable {
  package struct Argument: Sendable, Hashable {
    package var value: String
    /// The text from this argument's start to the end of the line, unparsed: a view into the line, not a copy.
    /// (A copy per argument made a 64 KB line of 32,000 words cost a gigabyte and seconds; `scripts/fuzz commands`
    /// found it.)
    package var rawRest: Substring
  }

  package var name: String
  package var arguments: [Argument]
  /// Everything after the command name, untouched (free text such as a reply may contain any quotes).
  package var rawArguments: String
  /// Set when the arguments could not be split (an unclosed quote); `arguments` is then empty.
  package var syntaxError: CommandSyntaxError?

  package init(name: String, arguments: [Argument], rawArguments: String = "", syntaxError: CommandSyntaxError? = nil) {
    self.name = name
    self.arguments = arguments
    self.rawArguments = rawArguments
    self.syntaxError = syntaxError
  }

  package var values: [String] { arguments.map(\.value) }

  /// The raw text from argument `index` on ("" when there is none).
  package func rest(from index: Int) -> String {
    index < arguments.count ? String(arguments[index].rawRest) : ""
  }
}

/// Why a line that addressed the bot could not be read.
package enum CommandSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
  case unterminatedQuote
  case empty

  package var description: String {
    switch self {
    case .unterminatedQuote: "A quoted argument is missing its closing quote."
    case .empty: "Say a command after the prefix; try “help”."
    }
  }
}
