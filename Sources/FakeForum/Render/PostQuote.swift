import Foundation

/// What the forum's Quote button puts in the reply box (`newreply.php?action=newreply&postid=P`):
/// `[quote="Name" post="P"]\n<the post's BBCode>\n[/quote]\n\n`. Like vBulletin, the quotes the post holds itself are
/// left out, so quoting a reply does not pile up the whole conversation.
enum PostQuote {
  static func bbcode(author: String, postID: Int, body: FakePostBody) -> String {
    "[quote=\"\(author)\" post=\"\(postID)\"]\n\(quotedText(body))\n[/quote]\n\n"
  }

  /// The post's BBCode without its own quotes, trimmed as the forum trims it. An HTML body (posts made through the
  /// admin API) loses its quote blocks and tags, keeps its line breaks, and has its entities decoded.
  static func quotedText(_ body: FakePostBody) -> String {
    switch body {
    case .bbcode(let text):
      return strippingQuotes(text).trimmingCharacters(in: .whitespacesAndNewlines)
    case .html(let html):
      let withoutQuotes = droppingQuoteBlocks(html)
        .replacingOccurrences(of: "<br[^>]*>\n?", with: "\n", options: [.regularExpression, .caseInsensitive])
      return decodingEntities(PageContext.bbcodeSource(.html(withoutQuotes)))
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
  }

  /// BBCode with every `[quote…]…[/quote]` pair removed, nested ones with their outer quote. Tags that pair with
  /// nothing stay as text, as the forum leaves them.
  static func strippingQuotes(_ text: String) -> String {
    var kept = ""
    // Where each open quote's tag starts, outermost first.
    var openings: [String.Index] = []
    var index = text.startIndex
    while index < text.endIndex {
      let rest = text[index...]
      if let opening = quoteOpening(rest) {
        openings.append(index)
        index = opening
        continue
      }
      if rest.prefix(8).lowercased() == "[/quote]" {
        let end = text.index(index, offsetBy: "[/quote]".count)
        if openings.isEmpty {
          kept += text[index..<end]
        } else {
          openings.removeLast()
        }
        index = end
        continue
      }
      if openings.isEmpty { kept.append(text[index]) }
      index = text.index(after: index)
    }
    // The outermost quote never closed: its tag pairs with nothing and stays as text; what follows it is read again
    // (quotes inside it may still pair).
    if let unclosed = openings.first, let tagEnd = quoteOpening(text[unclosed...]) {
      kept += text[unclosed..<tagEnd]
      kept += strippingQuotes(String(text[tagEnd...]))
    }
    return kept
  }

  /// The end of a `[quote]`, `[quote=…]` or `[quote …]` tag starting `text`, or nil.
  private static func quoteOpening(_ text: Substring) -> String.Index? {
    let head = text.prefix(7)
    guard head.count == 7, head.prefix(6).lowercased() == "[quote", let next = head.last,
      next == "]" || next == "=" || next == " "
    else { return nil }
    guard let close = text.firstIndex(of: "]") else { return nil }
    return text.index(after: close)
  }

  /// HTML without its `div.bbc-block` quote blocks (divs inside them counted so the block's own end is found).
  private static func droppingQuoteBlocks(_ html: String) -> String {
    var result = ""
    var rest = html[...]
    while let start = rest.range(of: "<div class=\"bbc-block\"") {
      result += rest[..<start.lowerBound]
      var depth = 0
      var cursor = start.lowerBound
      var end = rest.endIndex
      while cursor < rest.endIndex {
        let tail = rest[cursor...]
        if tail.hasPrefix("<div") {
          depth += 1
        } else if tail.hasPrefix("</div>") {
          depth -= 1
          if depth == 0 {
            end = rest.index(cursor, offsetBy: "</div>".count)
            break
          }
        }
        cursor = rest.index(after: cursor)
      }
      rest = rest[end...]
    }
    return result + rest
  }

  /// The entities the emulator's own pages and typical post HTML use: named basics and numeric references.
  private static func decodingEntities(_ text: String) -> String {
    guard text.contains("&") else { return text }
    var result = ""
    var rest = text[...]
    while let amp = rest.firstIndex(of: "&") {
      result += rest[..<amp]
      let tail = rest[amp...]
      guard let semicolon = tail.prefix(12).firstIndex(of: ";") else {
        result.append("&")
        rest = rest[rest.index(after: amp)...]
        continue
      }
      let name = tail[tail.index(after: amp)..<semicolon]
      if let decoded = entity(String(name)) {
        result += decoded
        rest = rest[rest.index(after: semicolon)...]
      } else {
        result.append("&")
        rest = rest[rest.index(after: amp)...]
      }
    }
    return result + rest
  }

  private static func entity(_ name: String) -> String? {
    switch name {
    case "amp": return "&"
    case "lt": return "<"
    case "gt": return ">"
    case "quot": return "\""
    case "apos", "#39": return "'"
    case "nbsp": return " "
    default:
      let number: UInt32?
      if name.hasPrefix("#x") || name.hasPrefix("#X") {
        number = UInt32(name.dropFirst(2), radix: 16)
      } else if name.hasPrefix("#") {
        number = UInt32(name.dropFirst())
      } else {
        number = nil
      }
      return number.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
    }
  }
}
