import ChatBridge
import Foundation

/// Recognises lines addressed to the bot: `!command args` (configurable prefix), `botname: command args` (also
/// `botname, …`), and any line in a direct conversation or that the transport marked as addressed to the bot
/// (`IncomingMessage.addressed`, passed as `isDirect`). Arguments split on whitespace; "double quotes" (straight
/// or curly) group words, and `\"` inside quotes is a literal quote.
package struct CommandParser: Sendable, Hashable {
  package var prefix: String
  package var botNames: [String]

  package init(prefix: String = "!", botNames: [String] = []) {
    self.prefix = prefix
    self.botNames = botNames
  }

  /// nil when the line is not for the bot; an error when it is but cannot be read.
  package func parse(_ line: String, isDirect: Bool = false) -> Result<CommandInput, CommandSyntaxError>? {
    let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let body = addressedBody(trimmed, isDirect: isDirect) else { return nil }
    let trimmedBody = body.drop(while: \.isWhitespace)
    let nameEnd = trimmedBody.firstIndex(where: \.isWhitespace) ?? trimmedBody.endIndex
    let name = trimmedBody[..<nameEnd].lowercased()
    guard !name.isEmpty else { return .failure(.empty) }
    let rest = trimmedBody[nameEnd...].drop(while: \.isWhitespace)
    do {
      let arguments = try Self.tokenize(rest)
      return .success(CommandInput(name: name, arguments: arguments, rawArguments: String(rest)))
    } catch {
      return .success(CommandInput(name: name, arguments: [], rawArguments: String(rest), syntaxError: error))
    }
  }

  private func addressedBody(_ line: String, isDirect: Bool) -> Substring? {
    if !prefix.isEmpty, line.hasPrefix(prefix) {
      let body = line.dropFirst(prefix.count)
      // "!" alone or "! !" is chat, not a command; so is "!!!".
      guard let first = body.first, !first.isWhitespace, !body.hasPrefix(prefix) else { return nil }
      return body
    }
    for name in botNames where !name.isEmpty {
      guard line.count > name.count, line.lowercased().hasPrefix(name.lowercased()) else { continue }
      let after = line.dropFirst(name.count)
      guard let separator = after.first, separator == ":" || separator == "," else { continue }
      return after.dropFirst().drop(while: \.isWhitespace)
    }
    return isDirect ? Substring(line) : nil
  }

  private static let openingQuotes: [Character: Character] = ["\"": "\"", "“": "”", "„": "“"]

  static func tokenize(_ text: Substring) throws(CommandSyntaxError) -> [CommandInput.Argument] {
    var tokens: [CommandInput.Argument] = []
    var index = text.startIndex
    while index < text.endIndex {
      if text[index].isWhitespace {
        index = text.index(after: index)
        continue
      }
      let start = index
      var value = ""
      if let closing = openingQuotes[text[index]] {
        index = text.index(after: index)
        var closed = false
        while index < text.endIndex {
          let character = text[index]
          if character == "\\", text.index(after: index) < text.endIndex, text[text.index(after: index)] == closing {
            value.append(closing)
            index = text.index(index, offsetBy: 2)
            continue
          }
          index = text.index(after: index)
          if character == closing || (closing == "”" && character == "\"") {
            closed = true
            break
          }
          value.append(character)
        }
        guard closed else { throw .unterminatedQuote }
      } else {
        while index < text.endIndex, !text[index].isWhitespace {
          value.append(text[index])
          index = text.index(after: index)
        }
      }
      tokens.append(.init(value: value, rawRest: text[start...]))
    }
    return tokens
  }
}
