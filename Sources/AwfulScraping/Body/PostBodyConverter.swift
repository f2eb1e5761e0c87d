import Foundation

/// Converts a post body (the nodes between the content markers, or inside `div.complete_shit`) into the small
/// rich-text tree the chat renderers understand. Recognised markup becomes typed nodes (quotes with their author and
/// post id, spoilers, code, smilies by their text code, videos, lists); anything else contributes its children, so no
/// raw HTML ever reaches a renderer. Whitespace follows the browser: runs collapse to one space, spaces vanish at line
/// and block edges, and at most one blank line separates content.
struct PostBodyConverter {
  /// Resolves relative image and link URLs.
  var baseURL: URL?

  func convert(_ nodes: [HTMLNode]) -> [RichText] {
    var out: [RichText] = []
    for node in nodes { append(node, to: &out) }
    return Self.normalize(out, isBlock: true)
  }

  private func children(_ node: HTMLNode, isBlock: Bool = false) -> [RichText] {
    var out: [RichText] = []
    var child = node.firstChild
    while let current = child {
      append(current, to: &out)
      child = current.nextSibling
    }
    return Self.normalize(out, isBlock: isBlock)
  }

  private func append(_ node: HTMLNode, to out: inout [RichText]) {
    if node.isText {
      let text = node.nodeContent
      if !text.isEmpty { out.append(.text(Self.collapse(text))) }
      return
    }
    guard node.isElement else { return }
    switch node.name {
    case "br":
      out.append(.lineBreak)
    case "b", "strong":
      wrap(RichText.bold, node, &out)
    case "i", "em", "cite":
      wrap(RichText.italic, node, &out)
    case "u", "ins":
      wrap(RichText.underline, node, &out)
    case "s", "strike", "del":
      wrap(RichText.strike, node, &out)
    case "a":
      link(node, &out)
    case "img":
      image(node, &out)
    case "pre":
      out.append(.code(Self.codeText(node.textContent)))
    case "code", "tt":
      // Inline code outside `pre` keeps its text; a block of it reads as code.
      let text = node.textContent
      if text.contains("\n") { out.append(.code(Self.codeText(text))) } else { out.append(.text(Self.collapse(text))) }
    case "blockquote":
      out.append(.quote(author: nil, postID: nil, children(node, isBlock: true)))
    case "ul", "ol":
      list(node, &out)
    case "iframe", "embed", "video", "object":
      if let url = mediaURL(node) { out.append(.video(url: url)) }
    case "span":
      if node.hasClassToken("bbc-spoiler") {
        out.append(.spoiler(children(node)))
      } else {
        out.append(contentsOf: children(node))
      }
    case "div":
      div(node, &out)
    case "p", "center", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "table", "tr", "li", "dl", "dd",
      "dt", "fieldset", "figure", "figcaption", "address", "form":
      if node.hasClassToken("editedby") { return }
      let content = children(node, isBlock: true)
      if !content.isEmpty { out.append(.paragraph(content)) }
    case "script", "style", "noscript", "head", "title", "input", "select", "textarea", "button", "hr", "meta",
      "link":
      return
    default:
      out.append(contentsOf: children(node))
    }
  }

  private func wrap(_ make: ([RichText]) -> RichText, _ node: HTMLNode, _ out: inout [RichText]) {
    let content = children(node)
    if !content.isEmpty { out.append(make(content)) }
  }

  private func link(_ node: HTMLNode, _ out: inout [RichText]) {
    let content = children(node)
    guard let href = node.attribute("href")?.trimmed, !href.isEmpty, !href.lowercased().hasPrefix("javascript:")
    else {
      out.append(contentsOf: content)
      return
    }
    let url = LinkParsing.absolute(href, base: baseURL)
    out.append(.link(url: url, content.isEmpty ? [.text(url)] : content))
  }

  private func image(_ node: HTMLNode, _ out: inout [RichText]) {
    guard let src = node.attribute("src")?.trimmed, !src.isEmpty else { return }
    let url = LinkParsing.absolute(src, base: baseURL)
    let code = [node.attribute("title"), node.attribute("alt")].lazy.compactMap { $0?.trimmed }.first { !$0.isEmpty }
    if SmilieHosts.isSmilie(url), let code {
      out.append(.smilie(code: code, url: url))
    } else {
      out.append(.image(url: url))
    }
  }

  private func list(_ node: HTMLNode, _ out: inout [RichText]) {
    var items: [[RichText]] = []
    var child = node.firstChild
    while let current = child {
      if current.isElement("li") {
        items.append(children(current, isBlock: true))
      } else if current.isElement, !current.isElement("script") {
        let content = children(current, isBlock: true)
        if !content.isEmpty { items.append(content) }
      }
      child = current.nextSibling
    }
    if !items.isEmpty { out.append(.list(items)) }
  }

  private func div(_ node: HTMLNode, _ out: inout [RichText]) {
    if node.hasClassToken("bbcode_video") {
      if let url = mediaURL(node) { out.append(.video(url: url)) }
      return
    }
    if node.hasClassToken("bbc-block") {
      out.append(block(node))
      return
    }
    if node.hasClassToken("tail") || node.hasClassToken("editedby") { return }
    let content = children(node, isBlock: true)
    if !content.isEmpty { out.append(.paragraph(content)) }
  }

  /// `div.bbc-block`: a quote (`h4` "X posted:" with `a.quote_link`, then `blockquote`) or a code block (`h5`
  /// "code:" with `pre`).
  private func block(_ node: HTMLNode) -> RichText {
    var heading: HTMLNode?
    var isCode = false
    var bodyNodes: [HTMLNode] = []
    var child = node.firstChild
    while let current = child {
      if current.isElement("h4") {
        heading = current
      } else if current.isElement("h5") {
        isCode = true
      } else {
        bodyNodes.append(current)
      }
      child = current.nextSibling
    }
    if isCode || (heading == nil && node.firstDescendant("pre") != nil) {
      let text = bodyNodes.map(\.textContent).joined()
      return .code(Self.codeText(text))
    }
    var author: String?
    var postID: String?
    if let heading {
      if let quoteLink = heading.firstDescendant("a", class: "quote_link") ?? heading.firstDescendant("a") {
        postID = quoteLink.attribute("href").flatMap { LinkParsing.queryValue("postid", in: $0) }
      }
      let title = heading.normalizedText
      if title.hasSuffix(" posted:") {
        author = String(title.dropLast(" posted:".count)).trimmed
      } else if !title.isEmpty, title.lowercased() != "quote:" {
        author = title.hasSuffix(":") ? String(title.dropLast()).trimmed : title
      }
    }
    var content: [RichText] = []
    for bodyNode in bodyNodes {
      if bodyNode.isElement("blockquote") {
        content.append(contentsOf: children(bodyNode, isBlock: true))
      } else {
        append(bodyNode, to: &content)
      }
    }
    return .quote(author: author, postID: postID, Self.normalize(content, isBlock: true))
  }

  /// The URL of an embedded video: the iframe, embed, video or object source, else a link inside.
  private func mediaURL(_ node: HTMLNode) -> String? {
    let candidates: [(String, String)] = [
      ("iframe", "src"), ("embed", "src"), ("source", "src"), ("video", "src"), ("object", "data"), ("a", "href"),
    ]
    for (tag, attribute) in candidates {
      let match = node.isElement(tag) ? node : node.firstDescendant(tag)
      if let value = match?.attribute(attribute)?.trimmed, !value.isEmpty {
        return LinkParsing.absolute(value, base: baseURL)
      }
    }
    if let movie = node.firstDescendant(where: { $0.isElement("param") && $0.attribute("name") == "movie" }),
      let value = movie.attribute("value"), !value.isEmpty
    {
      return LinkParsing.absolute(value, base: baseURL)
    }
    return nil
  }

  // MARK: - Whitespace

  /// Whitespace runs (including newlines and non-breaking spaces from `&nbsp;` runs) become one space.
  static func collapse(_ text: String) -> String {
    var needsWork = false
    var previousSpace = false
    for byte in text.utf8 {
      let isSpace = byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C
      if isSpace && (previousSpace || byte != 0x20) {
        needsWork = true
        break
      }
      previousSpace = isSpace
    }
    if !needsWork { return text }
    // Byte-level: the whitespace characters are ASCII, so UTF-8 sequences pass through untouched.
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count)
    var inSpace = false
    for byte in text.utf8 {
      if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C {
        if !inSpace { out.append(0x20) }
        inSpace = true
      } else {
        out.append(byte)
        inSpace = false
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Code keeps its lines but loses the blank lines around it and the CR of CRLF.
  static func codeText(_ text: String) -> String {
    let unix = text.replacingOccurrences(of: "\r\n", with: "\n")
    var lines = unix.split(separator: "\n", omittingEmptySubsequences: false)
    while let first = lines.first, first.allSatisfy(\.isWhitespace) { lines.removeFirst() }
    while let last = lines.last, last.allSatisfy(\.isWhitespace) { lines.removeLast() }
    return lines.joined(separator: "\n")
  }

  private static func isBoundary(_ node: RichText) -> Bool {
    switch node {
    case .lineBreak, .paragraph, .quote, .code, .list, .video: true
    default: false
    }
  }

  /// Merges adjacent text, drops spaces next to line breaks and blocks, keeps at most two line breaks in a row, and
  /// at the edges of a block drops line breaks and spaces altogether.
  static func normalize(_ nodes: [RichText], isBlock: Bool) -> [RichText] {
    var merged: [RichText] = []
    merged.reserveCapacity(nodes.count)
    for node in nodes {
      if case .text(let text) = node {
        if text.isEmpty { continue }
        if case .text(let previous)? = merged.last {
          merged[merged.count - 1] = .text(
            previous.hasSuffix(" ") && text.hasPrefix(" ") ? previous + text.dropFirst() : previous + text)
          continue
        }
      }
      merged.append(node)
    }

    var out: [RichText] = []
    out.reserveCapacity(merged.count)
    var breaks = 0
    for (index, node) in merged.enumerated() {
      switch node {
      case .text(var text):
        let atStart = out.isEmpty || isBoundary(out.last!)
        let atEnd = index + 1 == merged.count || isBoundary(merged[index + 1])
        if atStart && (isBlock || !out.isEmpty) { text = String(text.drop(while: { $0 == " " })) }
        if atEnd && (isBlock || index + 1 < merged.count) {
          while text.hasSuffix(" ") { text.removeLast() }
        }
        if text.isEmpty { continue }
        out.append(.text(text))
        breaks = 0
      case .lineBreak:
        if isBlock && out.isEmpty { continue }
        breaks += 1
        if breaks > 2 { continue }
        out.append(.lineBreak)
      default:
        out.append(node)
        breaks = 0
      }
    }
    if isBlock {
      while let last = out.last, case .lineBreak = last { out.removeLast() }
    }
    return out
  }
}

/// The forum's smilie image hosts (docs/forum-protocol.md §4); an image there with a title or alt is a smilie.
enum SmilieHosts {
  static func isSmilie(_ url: String) -> Bool {
    // Split "scheme://host/path?query" by hand: this runs for every image of every post.
    guard let schemeEnd = url.utf8Range(of: "://") else { return false }
    let rest = url[schemeEnd.upperBound...].prefix(while: { $0 != "?" && $0 != "#" })
    let slash = rest.firstIndex(of: "/") ?? rest.endIndex
    let host = rest[..<slash].lowercased()
    let parts = rest[slash...].lowercased().split(separator: "/").map(String.init)
    switch host {
    case "fi.somethingawful.com":
      return parts.contains { ["smilies", "posticons", "customtitles"].contains($0) }
    case "i.somethingawful.com":
      if parts.contains(where: { ["emot", "emoticons", "images"].contains($0) }) { return true }
      return parts.count >= 2 && parts[0] == "u" && (parts[1] == "adminuploads" || parts[1] == "garbageday")
    case "forumimages.somethingawful.com":
      return parts.contains { $0.hasPrefix("images") || $0 == "posticons" }
    default:
      return false
    }
  }
}
