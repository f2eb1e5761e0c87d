import ChatBridge

/// Makes text safe for one IRC line. Forum text must never carry a line break (it would start a new command), NUL
/// (servers cut the line there) or the mIRC formatting codes and other C0/C1 controls (they could fake formatting or
/// confuse clients); bidirectional overrides would make a line read differently from what it is.
package enum IRCTextSanitizer {
  /// Splits on every line break (LF, CR, CR LF, U+2028/2029, NEL) and cleans each line; empty lines are dropped.
  package static func lines(_ text: String) -> [String] {
    var lines: [String] = []
    var current = String.UnicodeScalarView()
    func flush() {
      let line = String(current).trimmingSpaces()
      if !line.isEmpty { lines.append(line) }
      current = String.UnicodeScalarView()
    }
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x0A, 0x0D, 0x85, 0x2028, 0x2029: flush()
      case 0x09: current.append(" ")
      case 0x00...0x1F, 0x7F...0x9F: continue
      case 0x202A...0x202E, 0x2066...0x2069: continue
      default: current.append(scalar)
      }
    }
    flush()
    return lines
  }

  /// One line: line breaks become spaces, controls go.
  package static func singleLine(_ text: String) -> String {
    lines(text).joined(separator: " ")
  }

  /// Removes mIRC formatting from what users typed (`\u{02}!help\u{02}` is still the command `!help`): bold,
  /// colour with its digits, reset, reverse, italics, strikethrough, underline, monospace, hex colour.
  package static func stripFormatting(_ text: String) -> String {
    ChatText.removingColourCodes(text) { scalar in
      switch scalar.value {
      case 0x02, 0x0F, 0x11, 0x16, 0x1D, 0x1E, 0x1F: nil
      default: scalar
      }
    }
  }
}

extension String {
  fileprivate func trimmingSpaces() -> String {
    var scalars = Substring(self).unicodeScalars
    while let first = scalars.first, first == " " { scalars.removeFirst() }
    while let last = scalars.last, last == " " { scalars.removeLast() }
    return String(scalars)
  }
}
