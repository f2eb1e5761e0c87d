/// Why a line from the server or a message we were about to send is not valid IRC.
package enum IRCParseError: Error, Sendable, Hashable, CustomStringConvertible {
  case emptyLine
  case missingCommand
  case invalidCommand(String)
  /// CR, LF or NUL inside a line: they would end the line early or be rejected by the server.
  case forbiddenCharacter(String)
  /// A parameter other than the last one that is empty, contains a space or starts with `:`.
  case invalidMiddleParameter(String)
  case invalidTagKey(String)
  case invalidPrefix(String)

  package var description: String {
    switch self {
    case .emptyLine: "empty line"
    case .missingCommand: "line has no command"
    case .invalidCommand(let command): "invalid command “\(command)”"
    case .forbiddenCharacter(let place): "CR, LF or NUL in \(place)"
    case .invalidMiddleParameter(let parameter): "parameter “\(parameter)” cannot be a middle parameter"
    case .invalidTagKey(let key): "invalid tag key “\(key)”"
    case .invalidPrefix(let prefix): "invalid prefix “\(prefix)”"
    }
  }
}
