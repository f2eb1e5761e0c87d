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

  /// `text` without `[quote…]…[/quote]` blocks (nested ones included).
  static func withoutNestedQuotes(_ text: String) -> String {
    var result = ""
    var depth = 0
    var rest = Substring(text)
    while let tag = rest.range(of: #"\[/?quote[^\]]*\]"#, options: [.regularExpression, .caseInsensitive]) {
      if depth == 0 { result += rest[..<tag.lowerBound] }
      depth = rest[tag].hasPrefix("[/") ? max(depth - 1, 0) : depth + 1
      rest = rest[tag.upperBound...]
    }
    if depth == 0 { result += rest }
    return result
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
