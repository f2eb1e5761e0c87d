import Foundation

/// The quote the forum's Quote button fills in (`[quote="Alice" post="123"]…[/quote]`), read apart and shortened to
/// the poster's own words: quotes inside it are left out (the forum does that too, but not every page), and a long
/// one is cut at a word, so a reply to a wall of text does not repeat the wall.
enum QuotedPost {
  static let maximumCharacters = 1_000

  /// The quote as it will be posted, who it names, and its words on one line for the preview; nil when `bbcode`
  /// is not a quote of one post.
  static func parse(_ bbcode: String, postID: String) -> PendingReplies.Quote? {
    let text = bbcode.replacingOccurrences(of: "\r\n", with: "\n")
    guard let open = text.range(of: #"\[quote=\"?([^\]\"]*)\"?( post=\"?\d+\"?)?\]"#, options: .regularExpression),
      let close = text.range(of: "[/quote]", options: [.backwards, .caseInsensitive]),
      open.upperBound <= close.lowerBound
    else { return nil }
    let header = String(text[open])
    let author = header.firstMatch(of: /\[quote="?([^\]"]*)"?/).map { String($0.1) } ?? ""
    var words = withoutNestedQuotes(String(text[open.upperBound..<close.lowerBound]))
      .trimmingCharacters(in: .whitespacesAndNewlines)
    if words.count > maximumCharacters {
      let cut = words.prefix(maximumCharacters)
      let atWord = cut.lastIndex(where: \.isWhitespace).map { cut[..<$0] } ?? cut
      words = atWord.trimmingCharacters(in: .whitespacesAndNewlines) + " […]"
    }
    let quote = "[quote=\"\(author)\" post=\"\(postID)\"]\n\(words)\n[/quote]\n\n"
    return PendingReplies.Quote(postID: postID, author: author, bbcode: quote, excerpt: oneLine(words))
  }

  /// `text` without `[quote…]…[/quote]` blocks (nested ones included). One pass over the bytes: a tag is `[quote`
  /// or `[/quote` (any case) up to the next `]`, and once no `]` follows, no later tag can close either. (A regular
  /// expression searched again from each tag took time growing with the square of a post full of unclosed tags.)
  static func withoutNestedQuotes(_ text: String) -> String {
    let bytes = Array(text.utf8)
    var kept: [UInt8] = []
    kept.reserveCapacity(bytes.count)
    var depth = 0
    var index = 0
    var copiedFrom = 0
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "["), let (isClosing, nameEnd) = quoteTag(in: bytes, at: index) else {
        index += 1
        continue
      }
      guard let close = bytes[nameEnd...].firstIndex(of: UInt8(ascii: "]")) else { break }
      if depth == 0 { kept += bytes[copiedFrom..<index] }
      depth = isClosing ? max(depth - 1, 0) : depth + 1
      index = close + 1
      copiedFrom = index
    }
    if depth == 0 { kept += bytes[copiedFrom...] }
    // Cuts fall on `[` and after `]`, both ASCII, so the kept bytes are whole UTF-8.
    return String(decoding: kept, as: UTF8.self)
  }

  /// Whether `[` at `start` opens `[quote…` or `[/quote…` (any case), and where the name ends.
  private static func quoteTag(in bytes: [UInt8], at start: Int) -> (isClosing: Bool, nameEnd: Int)? {
    var index = start + 1
    let isClosing = index < bytes.count && bytes[index] == UInt8(ascii: "/")
    if isClosing { index += 1 }
    for letter in "quote".utf8 {
      guard index < bytes.count, bytes[index] | 0x20 == letter else { return nil }
      index += 1
    }
    return (isClosing, index)
  }

  /// The words without BBCode tags, on one line, about 160 characters.
  static func oneLine(_ text: String) -> String {
    let plain = text.replacingOccurrences(of: #"\[[^\]]*\]"#, with: "", options: .regularExpression)
      .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    guard plain.count > 160 else { return plain }
    let cut = plain.prefix(160)
    return (cut.lastIndex(of: " ").map { String(cut[..<$0]) } ?? String(cut)) + "…"
  }
}
