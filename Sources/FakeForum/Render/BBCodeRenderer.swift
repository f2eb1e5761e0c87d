import Foundation

/// Turns the BBCode people type into the HTML the forum shows in `td.postbody`: quotes as `div.bbc-block`,
/// spoilers as `span.bbc-spoiler`, images, links (bare URLs linked too), line breaks as `<br />`.
/// Unknown or unbalanced tags stay as literal text, as on the forum.
enum BBCodeRenderer {
  private static let knownTags: Set<String> = [
    "b", "i", "u", "s", "quote", "spoiler", "img", "timg", "url", "code", "fixed", "sub", "super",
  ]

  private indirect enum Node {
    case text(String)
    case element(name: String, argument: String?, rawOpen: String, children: [Node], closed: Bool)
  }

  static func html(_ bbcode: String) -> String {
    let normalized = bbcode.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    return render(parse(normalized))
  }

  // MARK: Parsing

  private struct OpenElement {
    var name: String
    var argument: String?
    var rawOpen: String
    var children: [Node] = []
  }

  private static func parse(_ text: String) -> [Node] {
    var stack: [OpenElement] = [OpenElement(name: "", argument: nil, rawOpen: "")]
    var buffer = ""
    var index = text.startIndex

    func flush() {
      if !buffer.isEmpty {
        stack[stack.count - 1].children.append(.text(buffer))
        buffer = ""
      }
    }

    while index < text.endIndex {
      let character = text[index]
      guard character == "[", let close = text[index...].firstIndex(of: "]") else {
        buffer.append(character)
        index = text.index(after: index)
        continue
      }
      let inside = String(text[text.index(after: index)..<close])
      let raw = String(text[index...close])
      if inside.hasPrefix("/") {
        let name = inside.dropFirst().lowercased()
        if let depth = stack.lastIndex(where: { $0.name == name }), depth > 0 {
          flush()
          // Close everything opened after the matching tag as unclosed, then the tag itself.
          while stack.count - 1 > depth {
            let dangling = stack.removeLast()
            stack[stack.count - 1].children.append(
              .element(
                name: dangling.name, argument: dangling.argument, rawOpen: dangling.rawOpen,
                children: dangling.children, closed: false))
          }
          let element = stack.removeLast()
          stack[stack.count - 1].children.append(
            .element(
              name: element.name, argument: element.argument, rawOpen: element.rawOpen, children: element.children,
              closed: true))
        } else {
          buffer += raw
        }
        index = text.index(after: close)
        continue
      }
      let (name, argument) = tagNameAndArgument(inside)
      guard knownTags.contains(name) else {
        buffer += raw
        index = text.index(after: close)
        continue
      }
      flush()
      if name == "code" || name == "img" || name == "timg" {
        // Verbatim content up to the closing tag.
        let closing = "[/\(name)]"
        let contentStart = text.index(after: close)
        if let end = text.range(of: closing, options: .caseInsensitive, range: contentStart..<text.endIndex) {
          stack[stack.count - 1].children.append(
            .element(
              name: name, argument: argument, rawOpen: raw,
              children: [.text(String(text[contentStart..<end.lowerBound]))],
              closed: true))
          index = end.upperBound
        } else {
          buffer += raw
          index = text.index(after: close)
        }
        continue
      }
      stack.append(OpenElement(name: name, argument: argument, rawOpen: raw))
      index = text.index(after: close)
    }
    flush()
    while stack.count > 1 {
      let dangling = stack.removeLast()
      stack[stack.count - 1].children.append(
        .element(
          name: dangling.name, argument: dangling.argument, rawOpen: dangling.rawOpen, children: dangling.children,
          closed: false))
    }
    return stack[0].children
  }

  private static func tagNameAndArgument(_ inside: String) -> (String, String?) {
    if let equals = inside.firstIndex(of: "=") {
      return (inside[..<equals].lowercased(), String(inside[inside.index(after: equals)...]))
    }
    let name = inside.split(separator: " ", maxSplits: 1).first.map { $0.lowercased() } ?? ""
    return (name, nil)
  }

  // MARK: Rendering

  private static func render(_ nodes: [Node]) -> String {
    nodes.map(render).joined()
  }

  private static func render(_ node: Node) -> String {
    switch node {
    case .text(let text):
      return renderText(text)
    case .element(let name, let argument, let rawOpen, let children, let closed):
      guard closed else { return renderText(rawOpen) + render(children) }
      return renderElement(name: name, argument: argument, children: children)
    }
  }

  private static func plainText(_ nodes: [Node]) -> String {
    nodes.map { node in
      switch node {
      case .text(let text): text
      case .element(_, _, let rawOpen, let children, let closed): (closed ? "" : rawOpen) + plainText(children)
      }
    }.joined()
  }

  private static func renderElement(name: String, argument: String?, children: [Node]) -> String {
    switch name {
    case "b", "i", "u", "s", "sub": return "<\(name)>\(render(children))</\(name)>"
    case "super": return "<sup>\(render(children))</sup>"
    case "fixed": return "<tt class=\"bbc\">\(render(children))</tt>"
    case "spoiler":
      return
        "<span class=\"bbc-spoiler\" onmouseover=\"this.style.color='#FFFFFF';\" onmouseout=\"this.style.color=this.style.backgroundColor='#000000'\">\(render(children))</span>"
    case "img", "timg":
      let url = plainText(children).trimmingCharacters(in: .whitespacesAndNewlines)
      let classes = name == "timg" ? "img timg" : "img"
      return "<img src=\"\(HTMLText.escape(url))\" alt=\"\" class=\"\(classes)\" border=\"0\">"
    case "url":
      let url = (argument.map(unquoted) ?? plainText(children)).trimmingCharacters(in: .whitespacesAndNewlines)
      let label = argument == nil ? HTMLText.escape(plainText(children)) : render(children)
      return "<a href=\"\(HTMLText.escape(url))\" target=\"_blank\" rel=\"nofollow\">\(label)</a>"
    case "code":
      var code = plainText(children)
      if code.hasPrefix("\n") { code.removeFirst() }
      return "<div class=\"bbc-block code\"><h5>code:</h5><pre>\(HTMLText.escape(code))</pre></div>"
    case "quote":
      return renderQuote(argument: argument, children: trimmedQuoteContent(children))
    default:
      return render(children)
    }
  }

  private static func renderQuote(argument: String?, children: [Node]) -> String {
    var heading = ""
    if let argument {
      let (author, postID) = quoteAttribution(argument)
      if let author, !author.isEmpty {
        let label = "\(HTMLText.escape(author)) posted:"
        if let postID {
          heading =
            "<h4><a class=\"quote_link\" href=\"/showthread.php?goto=post&amp;postid=\(postID)#post\(postID)\" rel=\"nofollow\">\(label)</a></h4>"
        } else {
          heading = "<h4>\(label)</h4>"
        }
      }
    }
    return "<div class=\"bbc-block\">\(heading)<blockquote>\(render(children))</blockquote></div>"
  }

  /// `"Name" post="123"`, `Name`, `"Name"`.
  private static func quoteAttribution(_ argument: String) -> (String?, String?) {
    var rest = argument.trimmingCharacters(in: .whitespaces)
    var author: String
    if rest.hasPrefix("\""), let end = rest.dropFirst().firstIndex(of: "\"") {
      author = String(rest[rest.index(after: rest.startIndex)..<end])
      rest = String(rest[rest.index(after: end)...])
    } else if let space = rest.range(of: " post=") {
      author = String(rest[..<space.lowerBound])
      rest = String(rest[space.lowerBound...])
    } else {
      author = rest
      rest = ""
    }
    author = author.trimmingCharacters(in: .whitespaces)
    var postID: String?
    if let post = rest.range(of: "post=") {
      let digits = rest[post.upperBound...].drop { $0 == "\"" }.prefix { $0.isNumber }
      if !digits.isEmpty { postID = String(digits) }
    }
    return (author, postID)
  }

  private static func unquoted(_ value: String) -> String {
    var trimmed = value.trimmingCharacters(in: .whitespaces)
    if trimmed.count >= 2, trimmed.hasPrefix("\""), trimmed.hasSuffix("\"") {
      trimmed = String(trimmed.dropFirst().dropLast())
    }
    return trimmed
  }

  /// The forum drops the line break right after `[quote]` and right before `[/quote]`.
  private static func trimmedQuoteContent(_ children: [Node]) -> [Node] {
    var nodes = children
    if case .text(let first)? = nodes.first, first.hasPrefix("\n") { nodes[0] = .text(String(first.dropFirst())) }
    if case .text(let last)? = nodes.last, last.hasSuffix("\n") {
      nodes[nodes.count - 1] = .text(String(last.dropLast()))
    }
    return nodes
  }

  /// Escapes text, links bare URLs, and turns line breaks into `<br />`.
  private static func renderText(_ text: String) -> String {
    var out = ""
    for (n, line) in text.components(separatedBy: "\n").enumerated() {
      if n > 0 { out += "<br />\n" }
      out += linkified(line)
    }
    return out
  }

  private static func linkified(_ line: String) -> String {
    var out = ""
    var rest = Substring(line)
    while let firstStart = [rest.range(of: "http://"), rest.range(of: "https://")].compactMap({ $0?.lowerBound }).min()
    {
      out += HTMLText.escape(String(rest[..<firstStart]))
      let urlEnd = rest[firstStart...].firstIndex { $0.isWhitespace || $0 == "<" || $0 == "\"" } ?? rest.endIndex
      var url = String(rest[firstStart..<urlEnd])
      var trailing = ""
      while let last = url.last, ".,!?)".contains(last) {
        trailing = String(last) + trailing
        url.removeLast()
      }
      out += "<a href=\"\(HTMLText.escape(url))\" target=\"_blank\" rel=\"nofollow\">\(HTMLText.escape(url))</a>"
      out += HTMLText.escape(trailing)
      rest = rest[urlEnd...]
    }
    out += HTMLText.escape(String(rest))
    return out
  }
}
