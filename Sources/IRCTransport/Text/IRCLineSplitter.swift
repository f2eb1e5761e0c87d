/// Cuts one line of text into pieces of at most `maxBytes` of UTF-8, only between characters (never inside a
/// multibyte character or a grapheme cluster). A piece prefers to end after a space when one is near its end; the
/// space stays at the end of the piece, so the pieces concatenated give back the text exactly.
package enum IRCLineSplitter {
  /// How far back from the cut point a space is looked for, as a fraction of the piece.
  static let wordBreakWindow = 0.3

  package static func split(_ text: String, maxBytes: Int) -> [String] {
    precondition(maxBytes >= 4, "a piece must hold at least one character of any size")
    guard text.utf8.count > maxBytes else { return text.isEmpty ? [] : [text] }
    var pieces: [String] = []
    var rest = Substring(text)
    while rest.utf8.count > maxBytes {
      var bytes = 0
      var end = rest.startIndex
      var lastSpaceEnd: String.Index?
      var lastSpaceBytes = 0
      for index in rest.indices {
        let size = rest[index].utf8.count
        if bytes + size > maxBytes { break }
        bytes += size
        end = rest.index(after: index)
        if rest[index] == " " {
          lastSpaceEnd = end
          lastSpaceBytes = bytes
        }
      }
      if end == rest.startIndex {
        // A single grapheme cluster larger than a piece (long combining sequences): cut it between scalars.
        end = scalarCut(rest, maxBytes: maxBytes)
      } else if let spaceEnd = lastSpaceEnd, Double(lastSpaceBytes) >= Double(maxBytes) * (1 - wordBreakWindow) {
        end = spaceEnd
      }
      pieces.append(String(rest[..<end]))
      rest = rest[end...]
    }
    if !rest.isEmpty { pieces.append(String(rest)) }
    return pieces
  }

  private static func scalarCut(_ text: Substring, maxBytes: Int) -> String.Index {
    var bytes = 0
    var end = text.unicodeScalars.startIndex
    for index in text.unicodeScalars.indices {
      let size = UTF8.width(text.unicodeScalars[index])
      if bytes + size > maxBytes { break }
      bytes += size
      end = text.unicodeScalars.index(after: index)
    }
    return end
  }
}
