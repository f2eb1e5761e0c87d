/// A Discord message as the channel shows it, read by a small model of Discord's markdown: the text a person reads
/// and everything the markdown did besides showing text (a mention, a heading, a masked link, bold…). Tests read
/// what the bot sent through it, so "a post cannot break the message" is checked as a reader sees it, not as bytes.
///
/// The model covers what the client renders in webhook messages: backslash escapes (`\` before any character that
/// is not a letter, digit or space), `<…>` forms (autolinks, user, role and channel mentions, timestamps, custom
/// emoji), masked links `[x](https://…)`, bare links, `@everyone`/`@here`, inline formatting (`**`, `__`, `*`, `_`,
/// `~~`, `||`, `` ` ``) when closed on the same line, and block forms at a line's start (`>`/`>>>` quotes, `#`
/// headings, `-#` small text, `-`/`*` lists, `1.` numbered lists).
package struct FakeDiscordReading: Sendable, Hashable {
  /// One thing the markdown did.
  package enum Effect: Sendable, Hashable {
    /// A user (`<@1>`), role (`<@&1>`) or channel (`<#1>`) mention shown as one.
    case mention(String)
    /// `@everyone` or `@here`.
    case massMention(String)
    /// Text shown under another address: `[label](url)`.
    case maskedLink(label: String, url: String)
    /// A bare link, which Discord previews (an embed).
    case previewedLink(String)
    /// `<https://…>`: a link without a preview.
    case link(String)
    /// Inline formatting and what it covers: `bold`, `italic`, `underline`, `strike`, `spoiler`, `code`.
    case inline(String, String)
    /// A block form: `quote`, `heading`, `subtext`, `list`.
    case block(String)
    /// A `<t:…>` timestamp or `<:emoji:1>` shown as something else.
    case other(String)
  }

  /// The text as a person reads it, line by line (invisible characters removed).
  package var text: String
  package var effects: [Effect]

  /// Everything but links and the `allowed` inline formatting: what no relayed text may cause.
  package func unexpectedEffects(allowing allowed: Set<String> = []) -> [Effect] {
    effects.filter { effect in
      switch effect {
      case .link: false
      case .inline(let kind, _): !allowed.contains(kind)
      case .block(let kind): !allowed.contains(kind)
      default: true
      }
    }
  }

  package init(_ content: String) {
    var effects: [Effect] = []
    var lines: [String] = []
    var inMultiQuote = false
    for rawLine in content.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = Substring(rawLine)
      if inMultiQuote {
        // Everything after `>>> ` is quoted.
      } else if line.hasPrefix(">>> ") {
        effects.append(.block("quote"))
        line = line.dropFirst(4)
        inMultiQuote = true
      } else if line.hasPrefix("> ") {
        effects.append(.block("quote"))
        line = line.dropFirst(2)
      }
      let trimmed = line.drop(while: { $0 == " " })
      for (prefix, kind) in [
        ("# ", "heading"), ("## ", "heading"), ("### ", "heading"), ("-# ", "subtext"),
        ("- ", "list"), ("* ", "list"),
      ]
      where trimmed.hasPrefix(prefix) {
        effects.append(.block(kind))
        line = trimmed.dropFirst(prefix.count)
        break
      }
      let digits = trimmed.prefix(while: { $0.isASCII && $0.isNumber })
      if !digits.isEmpty, trimmed.dropFirst(digits.count).hasPrefix(". ") { effects.append(.block("list")) }
      lines.append(Self.inline(Array(line), effects: &effects))
    }
    text = lines.joined(separator: "\n")
    self.effects = effects
  }

  private static let invisible: Set<Character> = ["\u{200B}", "\u{2060}", "\u{200C}", "\u{200D}", "\u{FEFF}"]

  /// The shown text of one line's inline markdown, its effects appended.
  private static func inline(_ characters: [Character], effects: inout [Effect]) -> String {
    var shown = ""
    var index = 0
    func startsWith(_ text: String, at position: Int) -> Bool {
      let needle = Array(text)
      guard position + needle.count <= characters.count else { return false }
      return Array(characters[position..<(position + needle.count)]) == needle
    }
    /// The position of the next unescaped `marker` after `from`, on this line.
    func closer(_ marker: String, from: Int) -> Int? {
      var position = from
      while position < characters.count {
        if characters[position] == "\\", position + 1 < characters.count, isEscapable(characters[position + 1]) {
          position += 2
          continue
        }
        if startsWith(marker, at: position) { return position }
        position += 1
      }
      return nil
    }
    while index < characters.count {
      let character = characters[index]
      if character == "\\", index + 1 < characters.count, isEscapable(characters[index + 1]) {
        shown.append(characters[index + 1])
        index += 2
        continue
      }
      if character == "<", let end = characters[index...].firstIndex(of: ">") {
        let inside = String(characters[(index + 1)..<end])
        if let effect = angleForm(inside) {
          effects.append(effect)
          if case .link(let url) = effect { shown += url } else { shown += "<\(inside)>" }
          index = end + 1
          continue
        }
      }
      if character == "[", let close = closer("](", from: index + 1), let end = closer(")", from: close + 2) {
        let label = String(characters[(index + 1)..<close])
        let url = String(characters[(close + 2)..<end])
        if url.hasPrefix("http://") || url.hasPrefix("https://") || url.hasPrefix("<http") {
          effects.append(.maskedLink(label: label, url: url))
          shown += inline(Array(label), effects: &effects)
          index = end + 1
          continue
        }
      }
      if startsWith("http://", at: index) || startsWith("https://", at: index),
        index == 0 || !(characters[index - 1].isLetter || characters[index - 1].isNumber)
      {
        var end = index
        while end < characters.count, !characters[end].isWhitespace, characters[end] != "<" { end += 1 }
        let url = String(characters[index..<end])
        effects.append(.previewedLink(url))
        shown += url
        index = end
        continue
      }
      if character == "@", startsWith("@everyone", at: index) || startsWith("@here", at: index) {
        let word = startsWith("@everyone", at: index) ? "@everyone" : "@here"
        effects.append(.massMention(word))
        shown += word
        index += word.count
        continue
      }
      if character == "`", let end = closer("`", from: index + 1) {
        let code = String(characters[(index + 1)..<end])
        effects.append(.inline("code", code))
        shown += code
        index = end + 1
        continue
      }
      var matched = false
      for (marker, kind) in [
        ("**", "bold"), ("__", "underline"), ("~~", "strike"), ("||", "spoiler"), ("*", "italic"),
        ("_", "italic"),
      ]
      where startsWith(marker, at: index) {
        if let end = closer(marker, from: index + marker.count), end > index + marker.count {
          let inner = inline(Array(characters[(index + marker.count)..<end]), effects: &effects)
          effects.append(.inline(kind, inner))
          shown += inner
          index = end + marker.count
          matched = true
        }
        break
      }
      if matched { continue }
      if !invisible.contains(character) { shown.append(character) }
      index += 1
    }
    return shown
  }

  /// What Discord makes of `<inside>`; nil when it is text.
  private static func angleForm(_ inside: String) -> Effect? {
    if (inside.hasPrefix("http://") || inside.hasPrefix("https://")), !inside.contains(where: \.isWhitespace) {
      return .link(inside)
    }
    let digits: (Substring) -> Bool = { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    if inside.hasPrefix("@&"), digits(inside.dropFirst(2)) { return .mention("<\(inside)>") }
    if inside.hasPrefix("@!"), digits(inside.dropFirst(2)) { return .mention("<\(inside)>") }
    if inside.hasPrefix("@"), digits(inside.dropFirst()) { return .mention("<\(inside)>") }
    if inside.hasPrefix("#"), digits(inside.dropFirst()) { return .mention("<\(inside)>") }
    if inside.hasPrefix("t:"), digits(inside.dropFirst(2).prefix(while: { $0 != ":" })) { return .other("<\(inside)>") }
    if inside.hasPrefix(":") || inside.hasPrefix("a:"), let last = inside.split(separator: ":").last, digits(last) {
      return .other("<\(inside)>")
    }
    return nil
  }

  /// Discord's escape: a backslash before anything but a letter, a digit or whitespace shows that character.
  private static func isEscapable(_ character: Character) -> Bool {
    !(character.isLetter || character.isNumber || character.isWhitespace)
  }
}
