/// Lines into Discord messages of at most `contentLimit` characters, split between lines; nothing is left out. A
/// line too long for one message is split between words where it can be, else between characters, never inside a
/// backslash escape or a character; a quote line's pieces each stay quoted.
package enum DiscordMessageSplitter {
  /// Discord's limit on a message's `content` (longer: 400, code 50035). Counted here in UTF-16 units, which is at
  /// least the number of characters however Discord counts them (code points or UTF-16).
  package static let contentLimit = 2_000

  /// What starts a quote line (`DiscordRenderer` writes it).
  static let quotePrefix = "> "

  /// The length as Discord's limit counts it (see `contentLimit`).
  package static func length(_ text: String) -> Int { text.utf16.count }

  /// `lines` packed into as few messages as fit, in order; each message at most `limit` long.
  package static func split(_ lines: [String], limit: Int = contentLimit) -> [String] {
    let limit = max(limit, 16)
    var messages: [String] = []
    var current = ""
    for line in lines.flatMap({ pieces(of: $0, limit: limit) }) {
      if current.isEmpty {
        current = line
      } else if length(current) + 1 + length(line) <= limit {
        current += "\n" + line
      } else {
        messages.append(current)
        current = line
      }
    }
    if !current.isEmpty { messages.append(current) }
    return messages
  }

  /// One line as pieces of at most `limit`.
  static func pieces(of line: String, limit: Int) -> [String] {
    guard length(line) > limit else { return [line] }
    let prefix = line.hasPrefix(quotePrefix) ? quotePrefix : ""
    var rest = Substring(line.dropFirst(prefix.count))
    var pieces: [String] = []
    let room = limit - length(prefix)
    while length(prefix + rest) > limit {
      let cut = cutIndex(in: rest, room: room)
      pieces.append(prefix + rest[..<cut].trimmingTrailingSpaces())
      rest = rest[cut...].drop(while: { $0 == " " })
    }
    if !rest.isEmpty { pieces.append(prefix + rest) }
    return pieces
  }

  /// Where to end a piece of `text` that holds at most `room` units: after the last space that fits (when that keeps
  /// at least half the room), else after the last whole character that fits, moved back before a lone `\` so an
  /// escape stays with what it escapes.
  private static func cutIndex(in text: Substring, room: Int) -> String.Index {
    var used = 0
    var end = text.startIndex
    var lastSpace: String.Index?
    var index = text.startIndex
    while index < text.endIndex {
      let size = text[index].utf16.count
      if used + size > room { break }
      used += size
      if text[index] == " ", used >= room / 2 { lastSpace = index }
      index = text.index(after: index)
      end = index
    }
    if let lastSpace { return lastSpace }
    if end == text.startIndex {
      // One character longer than a whole message (a letter under thousands of combining marks): cut between its
      // code points, which shows the marks in two messages rather than losing either.
      var scalarUsed = 0
      for scalarIndex in text.unicodeScalars.indices {
        let size = text.unicodeScalars[scalarIndex].utf16.count
        if scalarUsed + size > room { break }
        scalarUsed += size
        end = text.unicodeScalars.index(after: scalarIndex)
      }
      return end > text.startIndex ? end : text.unicodeScalars.index(after: text.startIndex)
    }
    // Backslashes run in pairs (`\\` is an escaped backslash): an odd run at the end escapes the next character.
    var backslashes = 0
    var probe = end
    while probe > text.startIndex {
      let previous = text.index(before: probe)
      guard text[previous] == "\\" else { break }
      backslashes += 1
      probe = previous
    }
    if backslashes % 2 == 1 { end = text.index(before: end) }
    // At least one character a piece, so a line always shrinks.
    return end > text.startIndex ? end : text.index(after: text.startIndex)
  }
}

extension Substring {
  fileprivate func trimmingTrailingSpaces() -> Substring {
    var text = self
    while text.last == " " { text = text.dropLast() }
    return text
  }
}
