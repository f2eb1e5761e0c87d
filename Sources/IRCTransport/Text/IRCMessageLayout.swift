import BotCore

/// Turns an outgoing message into the text of IRC lines: cleaned of controls, one line per line of text, each cut
/// to `maxBytesPerLine`, at most `maxLines` lines. A message that does not fit ends with "…" and, when it has one,
/// a last line holding the link to the whole post.
package struct IRCMessageLayout: Sendable, Hashable {
  package var maxLines: Int
  package var mircFormatting: Bool
  package var titleColour: Int?

  package static let ellipsis = "…"

  package init(maxLines: Int = 4, mircFormatting: Bool = false, titleColour: Int? = nil) {
    self.maxLines = max(maxLines, 1)
    self.mircFormatting = mircFormatting
    self.titleColour = titleColour
  }

  /// The texts of the lines to send for `message` when each may hold `maxBytesPerLine` bytes.
  package func lines(for message: OutgoingMessage, maxBytesPerLine: Int) -> [String] {
    let budget = max(maxBytesPerLine, 16)
    var textLines = IRCTextSanitizer.lines(message.text)
    let link = message.link.map(IRCTextSanitizer.singleLine).flatMap { $0.isEmpty ? nil : $0 }
    // The renderer usually ends a post with its link; keep it aside so a cut message still ends with it once.
    var endsWithLink = false
    if let link, textLines.last == link {
      textLines.removeLast()
      endsWithLink = true
    }
    var pieces: [String] = []
    for (index, line) in textLines.enumerated() {
      if index == 0 && message.kind == .relay && mircFormatting {
        pieces += formattedTitle(line, budget: budget)
      } else {
        pieces += IRCLineSplitter.split(line, maxBytes: budget)
      }
    }
    let linkPieces = link.map { IRCLineSplitter.split($0, maxBytes: budget) } ?? []
    let whole = pieces + (endsWithLink ? linkPieces : [])
    if whole.count <= maxLines { return whole }

    // Cut: keep what fits before the link, mark the cut, end with the link when there is room for it.
    let room = linkPieces.isEmpty || linkPieces.count >= maxLines ? maxLines : maxLines - linkPieces.count
    var kept = Array(pieces.prefix(room))
    if let last = kept.popLast() {
      let trimmed = last.hasSuffix(" ") ? String(last.dropLast()) : last
      kept.append(
        ChatText.prefix(trimmed, maxBytes: budget - Self.ellipsis.utf8.count) + Self.ellipsis)
    }
    if room < maxLines { kept += linkPieces }
    return kept
  }

  /// The header line of a relayed post (`Title — author, date`) with the title part in bold/colour.
  private func formattedTitle(_ line: String, budget: Int) -> [String] {
    let separator = " — "
    let title: String
    let rest: String
    if let range = line.range(of: separator) {
      title = String(line[..<range.lowerBound])
      rest = String(line[range.lowerBound...])
    } else {
      title = line
      rest = ""
    }
    let formatted = IRCMircFormat.title(title, colour: titleColour) + rest
    // Formatting codes are a few bytes; when the header would not fit in one line, send it plain instead.
    if formatted.utf8.count <= budget { return [formatted] }
    return IRCLineSplitter.split(line, maxBytes: budget)
  }
}
