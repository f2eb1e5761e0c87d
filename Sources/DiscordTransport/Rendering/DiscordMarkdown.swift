/// Text made inert for Discord's markdown: what a forum post says is shown as written and can change nothing else
/// in the message. Every character Discord reads as formatting is escaped with a backslash (Discord shows `\*` as
/// `*`); links stay links; mentions cannot form.
///
/// - Inline formatting and code: `*`, `_`, `~`, `|`, `` ` ``, and `\` itself, wherever they are.
/// - Masked links `[x](y)`: `[` and `]`, so a post cannot show one address and link another.
/// - Mentions and other `<…>` forms (`<@123>`, `<@&1>`, `<#1>`, `<t:…>`, `<:emoji:1>`, `<https://…>`): `<`. The
///   webhook's `allowed_mentions` already keeps every mention from pinging; this keeps them from showing as one.
/// - `@everyone` and `@here`: a zero-width space after the `@` (forum text has a word joiner there already, see
///   `ChatText.defuseMentions`; this covers every line, the bot's own included).
/// - Block forms at the start of a line (after spaces): `>` (quotes), `#` (headings), `-`, `+` (lists, `-#` small
///   text) and the dot of `1.` (numbered lists). `>` is escaped anywhere.
/// - Links (`http://`, `https://`) are written as they are, wrapped in `<…>` unless `linkPreviews` (Discord then
///   shows the link without a preview card); escaping inside one would change the address, so only a link carrying
///   `@everyone` or `@here` (a user name before the host) gets the zero-width space (`scripts/fuzz discord` found
///   one).
package enum DiscordMarkdown {
  /// U+200B ZERO WIDTH SPACE: invisible, and `@\u{200B}everyone` is no mention.
  static let mentionBreaker: Character = "\u{200B}"

  static let inlineSpecials: Set<Character> = ["\\", "*", "_", "~", "|", "`", "[", "]", "<", ">"]
  static let lineStartSpecials: Set<Character> = ["#", "-", "+"]

  /// `text` (one line) escaped, its links kept.
  package static func escape(_ text: String, linkPreviews: Bool = false) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count + 16)
    let characters = Array(text)
    var index = 0
    var atLineStart = true
    while index < characters.count {
      if let end = linkEnd(in: characters, at: index) {
        // A link that carries `@everyone` or `@here` (`https://x@everyone`, a user name before the host) gets the
        // breaker too: the address changes, but no mention can show inside a link.
        var link = ""
        for position in index..<end {
          link.append(characters[position])
          if characters[position] == "@", mentionFollows(characters, after: position) { link.append(mentionBreaker) }
        }
        result += linkPreviews ? link : "<\(link)>"
        index = end
        atLineStart = false
        continue
      }
      let character = characters[index]
      if atLineStart, character == " " {
        result.append(character)
        index += 1
        continue
      }
      if inlineSpecials.contains(character) || (atLineStart && lineStartSpecials.contains(character)) {
        result.append("\\")
        result.append(character)
      } else if atLineStart, character.isASCII, character.isNumber {
        // `1. item` and `1) item` would become a numbered list: escape the dot after the number.
        var end = index
        while end < characters.count, characters[end].isASCII, characters[end].isNumber { end += 1 }
        result += String(characters[index..<end])
        if end < characters.count, characters[end] == "." || characters[end] == ")" {
          result.append("\\")
          result.append(characters[end])
          end += 1
        }
        index = end
        atLineStart = false
        continue
      } else if character == "@", mentionFollows(characters, after: index) {
        result.append(character)
        result.append(mentionBreaker)
      } else {
        result.append(character)
      }
      atLineStart = false
      index += 1
    }
    return result
  }

  /// `@everyone` or `@here` starts after the `@` at `index` (any case: only lower case pings, but upper case is
  /// defused as cheaply).
  private static func mentionFollows(_ characters: [Character], after index: Int) -> Bool {
    for word in ["everyone", "here"] {
      let end = index + 1 + word.count
      guard end <= characters.count else { continue }
      if String(characters[(index + 1)..<end]).lowercased() == word { return true }
    }
    return false
  }

  /// The end of a link starting at `index` (`http://` or `https://`, not inside a word), nil when none does. A link
  /// runs to the first space, `<`, `>`, backtick or quote; trailing punctuation is the sentence's, as is a `)` the
  /// link did not open.
  static func linkEnd(in characters: [Character], at index: Int) -> Int? {
    guard characters[index] == "h" || characters[index] == "H" else { return nil }
    if index > 0, characters[index - 1].isLetter || characters[index - 1].isNumber { return nil }
    let schemes = ["https://", "http://"]
    guard
      let scheme = schemes.first(where: { scheme in
        index + scheme.count <= characters.count
          && String(characters[index..<(index + scheme.count)]).lowercased() == scheme
      })
    else { return nil }
    var end = index + scheme.count
    while end < characters.count, !stopsLink(characters[end]) { end += 1 }
    // Trailing punctuation belongs to the sentence, and an unbalanced `)` to the text around (`[x](https://y)`).
    while end > index + scheme.count {
      let last = characters[end - 1]
      if trailing.contains(last) {
        end -= 1
      } else if last == ")" {
        let link = characters[index..<end]
        let opened = link.filter { $0 == "(" }.count
        let closed = link.filter { $0 == ")" }.count
        if closed > opened { end -= 1 } else { break }
      } else {
        break
      }
    }
    // A scheme and nothing after it is no link.
    return end > index + scheme.count ? end : nil
  }

  private static let trailing: Set<Character> = [".", ",", ";", ":", "!", "?", "'", "*", "_", "~", "|", "]", "}"]

  private static func stopsLink(_ character: Character) -> Bool {
    character.isWhitespace || character == "<" || character == ">" || character == "`" || character == "\""
      || character.unicodeScalars.contains { $0.properties.generalCategory == .control }
  }
}
