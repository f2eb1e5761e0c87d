import BotCore
import Foundation

/// The last line of defence before text reaches a room: no `@room`, no user mentions, no pills, and only allow-listed
/// HTML. The renderer already defuses forum text; this also covers command replies that echo user input, and runs on
/// the exact strings that are sent. Idempotent, so running it on already-safe text changes nothing.
package enum MatrixMentionSafety {
  /// Plain `body`: every `@name` gets an invisible word joiner after the `@` (see `ChatText.defuseMentions`).
  package static func defuseText(_ text: String) -> String {
    ChatText.defuseMentions(text)
  }

  /// `formatted_body`: text between tags is defused; links to users or rooms (`https://matrix.to/#/…`,
  /// `matrix:` URIs), which clients turn into pills, become plain text; tags and attributes outside
  /// `HTMLAllowList` are dropped (their text stays).
  package static func defuseHTML(_ html: String) -> String {
    var output = ""
    output.reserveCapacity(html.utf8.count + 16)
    var droppedAnchors: [Bool] = []
    var rest = html[...]
    while let open = rest.firstIndex(of: "<") {
      output += defuseHTMLText(rest[..<open])
      guard let close = rest[open...].firstIndex(of: ">") else {
        // A stray "<" with no end: text, escaped.
        output += defuseHTMLText("&lt;" + rest[rest.index(after: open)...])
        return output
      }
      let tag = rest[rest.index(after: open)..<close]
      output += rewrite(tag: tag, droppedAnchors: &droppedAnchors)
      rest = rest[rest.index(after: close)...]
    }
    output += defuseHTMLText(rest)
    return output
  }

  /// True for links that Matrix clients render as mention pills.
  package static func isPill(_ href: String) -> Bool {
    let lowered = href.lowercased()
    return lowered.hasPrefix("matrix:") || lowered.hasPrefix("https://matrix.to/")
      || lowered.hasPrefix("http://matrix.to/")
  }

  private static func defuseHTMLText(_ text: Substring) -> String {
    var text = String(text)
    // An escaped "@" would turn back into one in the client.
    for entity in ["&#64;", "&#x40;", "&#X40;", "&commat;"] where text.contains(entity) {
      text = text.replacingOccurrences(of: entity, with: "@")
    }
    return ChatText.defuseMentions(text)
  }

  private static func rewrite(tag: Substring, droppedAnchors: inout [Bool]) -> String {
    var body = tag
    let isClosing = body.first == "/"
    if isClosing { body = body.dropFirst() }
    let name = String(body.prefix { $0.isLetter || $0.isNumber }).lowercased()
    guard !name.isEmpty, HTMLAllowList.tags[name] != nil else { return "" }
    if isClosing {
      if name == "a", let dropped = droppedAnchors.popLast(), dropped { return "" }
      return "</\(name)>"
    }
    let attributes = parseAttributes(body.dropFirst(name.count))
    var kept: [(String, String)] = []
    for (attribute, value) in attributes where HTMLAllowList.allows(tag: name, attribute: attribute) {
      if attribute == "href" {
        guard let link = HTMLAllowList.safeLink(value), !isPill(link) else { continue }
        kept.append((attribute, link))
      } else {
        kept.append((attribute, value))
      }
    }
    if name == "a" {
      let isLink = kept.contains { $0.0 == "href" }
      droppedAnchors.append(!isLink)
      if !isLink { return "" }
    }
    let rendered = kept.map { " \($0.0)=\"\(ChatText.escapeHTML($0.1))\"" }.joined()
    return "<\(name)\(rendered)>"
  }

  /// `name="value"`, `name='value'`, `name=value` and bare `name`; values are unescaped.
  private static func parseAttributes(_ text: Substring) -> [(String, String)] {
    var result: [(String, String)] = []
    var rest = text
    while true {
      rest = rest.drop { $0.isWhitespace || $0 == "/" }
      let name = rest.prefix { !$0.isWhitespace && $0 != "=" && $0 != "/" }
      guard !name.isEmpty else { return result }
      rest = rest.dropFirst(name.count).drop(while: \.isWhitespace)
      var value = ""
      if rest.first == "=" {
        rest = rest.dropFirst().drop(while: \.isWhitespace)
        if let quote = rest.first, quote == "\"" || quote == "'" {
          let inner = rest.dropFirst()
          let end = inner.firstIndex(of: quote) ?? inner.endIndex
          value = String(inner[..<end])
          rest = end < inner.endIndex ? inner[inner.index(after: end)...] : inner[end...]
        } else {
          let raw = rest.prefix { !$0.isWhitespace }
          value = String(raw)
          rest = rest.dropFirst(raw.count)
        }
      }
      result.append((name.lowercased(), unescape(value)))
    }
  }

  private static func unescape(_ value: String) -> String {
    guard value.contains("&") else { return value }
    return
      value
      .replacingOccurrences(of: "&quot;", with: "\"")
      .replacingOccurrences(of: "&#39;", with: "'")
      .replacingOccurrences(of: "&lt;", with: "<")
      .replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&amp;", with: "&")
  }
}
