import Foundation

/// Makes forum-supplied text safe to show in a room. Applied to every string that came from the forum or a user
/// before it is rendered, plain or HTML.
package enum ChatText {
  /// U+2060 WORD JOINER: invisible, so readers see the same text, but `@room` no longer matches the push rule
  /// (Matrix matches the literal word "@room" in the body) and `@user:server` no longer forms a mention.
  /// Chosen over replacing `@` with a full-width `＠` because copying the text still gives the original
  /// characters plus an invisible one, and the text looks unchanged.
  static let mentionBreaker: Character = "\u{2060}"

  /// Removes control characters (C0 except newline, C1, DEL) and bidirectional overrides that could make a line
  /// read differently from what it is; tabs become spaces. mIRC colour codes go whole, with their colour numbers
  /// (`\u{03}04,12red` is "red", not "04,12red"), so no transport shows the digits of a colour it never shows.
  package static func stripControls(_ text: String) -> String {
    removingColourCodes(text) { scalar in
      switch scalar.value {
      case 0x0A: scalar
      case 0x09: " "
      case 0x00...0x1F, 0x7F...0x9F: nil
      // Bidi embeddings/overrides/isolates and the line/paragraph separators some clients treat as newlines.
      case 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: nil
      default: scalar
      }
    }
  }

  /// Walks the text, dropping each mIRC colour code (`\u{03}` with up to two decimal digits, `\u{04}` with up to six
  /// hex ones, each optionally `,background`; a comma without a digit after it is text) together with its numbers;
  /// every other scalar goes through `other`, which keeps it, replaces it, or drops it (nil). What `stripControls`
  /// and the IRC transport's removal of typed formatting share.
  package static func removingColourCodes(_ text: String, other: (Unicode.Scalar) -> Unicode.Scalar?) -> String {
    var result = String.UnicodeScalarView()
    let scalars = Array(text.unicodeScalars)
    var index = 0
    /// A colour number's digit at `offset`: decimal, or hex for `\u{04}` colours.
    func isDigit(_ offset: Int, hex: Bool) -> Bool {
      guard offset < scalars.count else { return false }
      return hex ? scalars[offset].properties.isASCIIHexDigit : ("0"..."9").contains(scalars[offset])
    }
    func skipDigits(max count: Int, hex: Bool) {
      var taken = 0
      while taken < count, isDigit(index, hex: hex) {
        index += 1
        taken += 1
      }
    }
    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      guard scalar.value == 0x03 || scalar.value == 0x04 else {
        if let kept = other(scalar) { result.append(kept) }
        continue
      }
      let hex = scalar.value == 0x04
      let width = hex ? 6 : 2
      skipDigits(max: width, hex: hex)
      if index < scalars.count, scalars[index] == ",", isDigit(index + 1, hex: hex) {
        index += 1
        skipDigits(max: width, hex: hex)
      }
    }
    return String(result)
  }

  /// Defuses every `@` that starts a name (`@room`, `@everyone`, `@alice:example.org`), so relayed forum text can
  /// never ping a room or a crowd. Forum posts have no legitimate reason to mention chat users.
  package static func defuseMentions(_ text: String) -> String {
    guard text.contains("@") else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 8)
    var previous: Character?
    var iterator = text.makeIterator()
    var pendingAt = false
    while let character = iterator.next() {
      if pendingAt {
        result.append("@")
        if character.isLetter || character.isNumber || character == "_" {
          result.append(mentionBreaker)
        }
        pendingAt = false
      }
      if character == "@" && !(previous?.isLetter ?? false) && !(previous?.isNumber ?? false) {
        // An "@" after a letter is an e-mail address, not a mention: leave it alone.
        pendingAt = true
      } else {
        result.append(character)
      }
      previous = character
    }
    if pendingAt { result.append("@") }
    return result
  }

  /// Both of the above: what every forum string goes through.
  package static func safe(_ text: String) -> String {
    defuseMentions(stripControls(text))
  }

  /// One line: controls stripped, newlines folded into spaces (titles, names).
  package static func safeLine(_ text: String) -> String {
    safeLine(text, keepingEdges: false)
  }

  /// One line; `keepingEdges` keeps leading and trailing spaces (a piece of a sentence: " — ").
  package static func safeLine(_ text: String, keepingEdges: Bool) -> String {
    let folded = safe(text).split(omittingEmptySubsequences: false, whereSeparator: { $0.isNewline })
      .joined(separator: " ")
    return keepingEdges ? folded : folded.trimmingCharacters(in: .whitespaces)
  }

  /// Escapes text for HTML content and attribute values.
  package static func escapeHTML(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      default: result.append(character)
      }
    }
    return result
  }

  /// The longest prefix of `text` that fits in `maxBytes` of UTF-8, cut between characters (never inside one).
  package static func prefix(_ text: String, maxBytes: Int) -> String {
    guard text.utf8.count > maxBytes else { return text }
    var bytes = 0
    var end = text.startIndex
    for index in text.indices {
      let size = text[index].utf8.count
      if bytes + size > maxBytes { break }
      bytes += size
      end = text.index(after: index)
    }
    return String(text[..<end])
  }
}
