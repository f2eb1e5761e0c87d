/// One IRC protocol message: optional IRCv3 tags, optional prefix, a command and its parameters. Parsing accepts
/// what servers send (runs of spaces, trailing parameters with or without `:`); serialising validates so that no
/// parameter can smuggle a line break or a second command.
package struct IRCMessage: Sendable, Hashable, CustomStringConvertible {
  package var tags: IRCTags
  package var prefix: IRCPrefix?
  package var command: IRCCommand
  /// All parameters, the trailing one last and without its `:`.
  package var parameters: [String]

  /// Builds a message to send, checking every parameter: only the last may contain spaces or start with `:`, and
  /// none may contain CR, LF or NUL.
  package init(
    tags: IRCTags = IRCTags(), prefix: IRCPrefix? = nil, command: IRCCommand, parameters: [String] = []
  ) throws(IRCParseError) {
    for (index, parameter) in parameters.enumerated() {
      if parameter.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
        throw .forbiddenCharacter("parameter \(index + 1) of \(command)")
      }
      let isLast = index == parameters.count - 1
      if !isLast && (parameter.isEmpty || parameter.contains(" ") || parameter.hasPrefix(":")) {
        throw .invalidMiddleParameter(parameter)
      }
    }
    self.tags = tags
    self.prefix = prefix
    self.command = command
    self.parameters = parameters
  }

  /// Parses one line as received, without its CR LF.
  package init(parsing line: String) throws(IRCParseError) {
    if line.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
      throw .forbiddenCharacter("a received line")
    }
    var rest = Substring(line).drop(while: { $0 == " " })
    guard !rest.isEmpty else { throw .emptyLine }

    var tags = IRCTags()
    if rest.first == "@" {
      let end = rest.firstIndex(of: " ") ?? rest.endIndex
      tags = try IRCTags(parsing: rest[rest.index(after: rest.startIndex)..<end])
      rest = rest[end...].drop(while: { $0 == " " })
    }

    var prefix: IRCPrefix?
    if rest.first == ":" {
      let end = rest.firstIndex(of: " ") ?? rest.endIndex
      prefix = try IRCPrefix(parsing: rest[rest.index(after: rest.startIndex)..<end])
      rest = rest[end...].drop(while: { $0 == " " })
    }

    let commandEnd = rest.firstIndex(of: " ") ?? rest.endIndex
    let commandText = rest[..<commandEnd]
    guard !commandText.isEmpty else { throw .missingCommand }
    let command = try IRCCommand(String(commandText))
    rest = rest[commandEnd...]

    var parameters: [String] = []
    while true {
      rest = rest.drop(while: { $0 == " " })
      guard !rest.isEmpty else { break }
      if rest.first == ":" {
        parameters.append(String(rest.dropFirst()))
        break
      }
      let end = rest.firstIndex(of: " ") ?? rest.endIndex
      parameters.append(String(rest[..<end]))
      rest = rest[end...]
    }
    self.tags = tags
    self.prefix = prefix
    self.command = command
    self.parameters = parameters
  }

  /// The line to send, without CR LF. The last parameter gets a `:` when it needs one (empty, spaces, leading `:`).
  package var serialized: String {
    var line = ""
    if !tags.isEmpty { line += "@" + tags.serialized + " " }
    if let prefix { line += ":" + prefix.description + " " }
    line += command.rawValue
    for (index, parameter) in parameters.enumerated() {
      let isLast = index == parameters.count - 1
      if isLast && (parameter.isEmpty || parameter.contains(" ") || parameter.hasPrefix(":")) {
        line += " :" + parameter
      } else {
        line += " " + parameter
      }
    }
    return line
  }

  package var description: String { serialized }

  /// Parameter `index`, or nil when the message has fewer.
  package func parameter(_ index: Int) -> String? {
    parameters.indices.contains(index) ? parameters[index] : nil
  }

  /// The nick of the sender, when the prefix is a user.
  package var sourceNick: String? { prefix.flatMap { $0.isServer ? nil : $0.name } }
}
