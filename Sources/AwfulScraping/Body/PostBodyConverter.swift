import ForumModel
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
    // The nodes keep the document alive for the whole conversion, so the walk below reads raw nodes.
    var out: [RichText] = []
    out.reserveCapacity(nodes.count)
    for node in nodes { append(node.raw, to: &out) }
    Self.finish(&out, isBlock: true)
    return out
  }

  private func children(_ node: RawNode, isBlock: Bool = false) -> [RichText] {
    var out: [RichText] = []
    // Sized once for about one item per child, instead of regrowing while a long body is appended.
    var childCount = 0
    var counted = node.pointer.pointee.children
    while let current = counted {
      childCount += 1
      counted = current.pointee.next
    }
    out.reserveCapacity(childCount)
    var child = node.pointer.pointee.children
    while let current = child {
      append(RawNode(current), to: &out)
      child = current.pointee.next
    }
    Self.finish(&out, isBlock: isBlock)
    return out
  }

  private func append(_ node: RawNode, to out: inout [RichText]) {
    if node.isText {
      if let text = Self.collapsedContent(node) { Self.appendText(text, to: &out) }
      return
    }
    guard node.isElement else { return }
    switch BodyElement(node.pointer) {
    case .lineBreak:
      out.append(.lineBreak)
    case .bold:
      wrap(RichText.bold, node, &out)
    case .italic:
      wrap(RichText.italic, node, &out)
    case .underline:
      wrap(RichText.underline, node, &out)
    case .strike:
      wrap(RichText.strike, node, &out)
    case .link:
      link(node, &out)
    case .image:
      image(node, &out)
    case .preformatted:
      out.append(.code(Self.codeText(node.textContent)))
    case .code:
      // Inline code outside `pre` keeps its text; a block of it reads as code.
      let text = node.textContent
      if text.contains("\n") {
        out.append(.code(Self.codeText(text)))
      } else {
        Self.appendText(Self.collapse(text), to: &out)
      }
    case .blockquote:
      out.append(.quote(author: nil, postID: nil, children(node, isBlock: true)))
    case .list:
      list(node, &out)
    case .media:
      if let url = mediaURL(node) { out.append(.video(url: url)) }
    case .span:
      if node.hasClassToken("bbc-spoiler") {
        out.append(.spoiler(children(node)))
      } else {
        Self.appendContents(children(node), to: &out)
      }
    case .div:
      div(node, &out)
    case .paragraph:
      if node.hasClassToken("editedby") { return }
      let content = children(node, isBlock: true)
      if !content.isEmpty { out.append(.paragraph(content)) }
    case .ignored:
      return
    case .other:
      Self.appendContents(children(node), to: &out)
    }
  }

  private func wrap(_ make: ([RichText]) -> RichText, _ node: RawNode, _ out: inout [RichText]) {
    let content = children(node)
    if !content.isEmpty { out.append(make(content)) }
  }

  private func link(_ node: RawNode, _ out: inout [RichText]) {
    let content = children(node)
    guard let href = node.attribute("href")?.trimmed, !href.isEmpty, !Self.isJavaScript(href) else {
      Self.appendContents(content, to: &out)
      return
    }
    let url = LinkParsing.absolute(href, base: baseURL)
    out.append(.link(url: url, content.isEmpty ? [.text(url)] : content))
  }

  private func image(_ node: RawNode, _ out: inout [RichText]) {
    guard let src = node.attribute("src")?.trimmed, !src.isEmpty else { return }
    let url = LinkParsing.absolute(src, base: baseURL)
    switch ForumAttachmentAddress.read(url, forum: baseURL) {
    case .attachment(let id, let canonical):
      out.append(.attachment(id: id, url: canonical))
      return
    case .junk:
      // The forum's own attachment page with no attachment number it could hold: a link, never a picture fetched
      // without the session.
      out.append(.link(url: url, [.text(url)]))
      return
    case .other:
      break
    }
    if SmilieHosts.isSmilie(url), let code = smilieCode(node) {
      out.append(.smilie(code: code, url: url))
    } else if Self.isThumbnail(node) {
      out.append(.thumbnail(url: url))
    } else {
      out.append(.image(url: url))
    }
  }

  /// A `[timg]`: the forum marks it `class="timg"` and shows it shrunk until clicked.
  private static func isThumbnail(_ node: RawNode) -> Bool {
    guard let classes = node.attribute("class") else { return false }
    return classes.split(separator: " ").contains { $0.lowercased() == "timg" }
  }

  /// A smilie's text code: its title, else its alt text.
  private func smilieCode(_ node: RawNode) -> String? {
    if let title = node.attribute("title")?.trimmed, !title.isEmpty { return title }
    if let alt = node.attribute("alt")?.trimmed, !alt.isEmpty { return alt }
    return nil
  }

  /// `href.lowercased().hasPrefix("javascript:")`, by bytes when the prefix is followed by ASCII (or nothing).
  static func isJavaScript(_ href: String) -> Bool {
    let scheme = "javascript:".utf8
    var bytes = href.utf8.makeIterator()
    for expected in scheme {
      guard let byte = bytes.next() else { return false }
      let lower = byte >= 65 && byte <= 90 ? byte + 32 : byte
      // A non-ASCII byte may lower-case or combine differently: let the character-level check decide.
      if byte >= 0x80 { return href.lowercased().hasPrefix("javascript:") }
      if lower != expected { return false }
    }
    // A combining mark after the colon would make it part of a different character.
    if let next = bytes.next(), next >= 0x80 { return href.lowercased().hasPrefix("javascript:") }
    return true
  }

  private func list(_ node: RawNode, _ out: inout [RichText]) {
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

  private func div(_ node: RawNode, _ out: inout [RichText]) {
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
  private func block(_ node: RawNode) -> RichText {
    var heading: RawNode?
    var isCode = false
    var bodyNodes: [RawNode] = []
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
    // Code blocks are headed `h5` "code:"; a heading that only says "code:" or a `pre` with no heading is code too,
    // never a quote of someone called "code".
    let headingSaysCode = heading.map { $0.normalizedText.lowercased() == "code:" } ?? false
    if isCode || headingSaysCode || (heading == nil && node.firstDescendant("pre") != nil) {
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
        Self.appendContents(children(bodyNode, isBlock: true), to: &content)
      } else {
        append(bodyNode, to: &content)
      }
    }
    Self.finish(&content, isBlock: true)
    return .quote(author: author, postID: postID, content)
  }

  /// The URL of an embedded video: the iframe, embed, video or object source, else a link inside.
  private func mediaURL(_ node: RawNode) -> String? {
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

  /// A text node's content with whitespace runs collapsed (`collapse`), read straight from the tree so the text is
  /// copied once; nil when empty.
  static func collapsedContent(_ node: RawNode) -> String? {
    guard let content = node.pointer.pointee.content, content.pointee != 0 else { return nil }
    let length = strlen(UnsafeRawPointer(content).assumingMemoryBound(to: CChar.self))
    return collapsed(UnsafeBufferPointer(start: content, count: length))
  }

  /// `bytes` with each whitespace run (space, tab, newline, form feed, carriage return) made one space.
  static func collapsed(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    guard let content = bytes.baseAddress else { return "" }
    let length = bytes.count
    // One pass straight into the new string, whether or not anything collapses: a text node is copied once either
    // way, and most text nodes of a post start with the newline after a `<br>`.
    return String(unsafeUninitializedCapacity: length) { out in
      var count = 0
      var inSpace = false
      var i = 0
      // Space, tab, newline, form feed, carriage return: one bit each. Without branches on the text, whose spaces
      // come at unpredictable places: every byte is written, and a space after a space is overwritten.
      func copyByte() {
        let byte = content[i]
        let isSpace = byte <= 0x20 && (0x1_0000_3600 as UInt64) & (1 << UInt64(byte & 0x3F)) != 0
        out[count] = isSpace ? 0x20 : byte
        count += isSpace && inSpace ? 0 : 1
        inSpace = isSpace
        i += 1
      }
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highs: UInt64 = 0x8080_8080_8080_8080
      while i + 8 <= length {
        // Eight bytes at once when there is nothing to collapse in them: no byte below 0x20 and no space after a
        // space, as in most of a post's text. Otherwise these eight go byte by byte. (`count <= i`: collapsing only
        // shortens, so the store stays inside the string's `length` bytes.)
        let word = UnsafeRawPointer(content + i).loadUnaligned(as: UInt64.self)
        let below = (word &- 0x20 &* ones) & ~word & highs
        let spaceBits = word ^ (0x20 &* ones)
        // High bit set at each space (and, rarely, at a `!` right after one: a false alarm, left to the bytes).
        let spaces = (spaceBits &- ones) & ~spaceBits & highs
        // Little-endian: text byte k is bits 8k..8k+7, so this marks a space right after a space in the word.
        let doubled = spaces & (spaces << 8)
        if below == 0, doubled == 0, !(inSpace && word & 0xFF == 0x20) {
          UnsafeMutableRawPointer(out.baseAddress! + count).storeBytes(of: word, as: UInt64.self)
          count += 8
          i += 8
          inSpace = word >> 56 == 0x20
        } else {
          for _ in 0..<8 { copyByte() }
        }
      }
      while i < length { copyByte() }
      return count
    }
  }

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

  // The space checks below read bytes: a space next to an ASCII byte (or to nothing) is a character of its own.
  // Next to a non-ASCII byte it might not be (a combining mark joins it), so those take the character-level path.

  /// `text.hasSuffix(" ")`.
  private static func endsWithSpace(_ text: String) -> Bool {
    let bytes = text.utf8
    guard bytes.last == 0x20 else { return false }
    let space = bytes.index(before: bytes.endIndex)
    if space == bytes.startIndex || bytes[bytes.index(before: space)] < 0x80 { return true }
    return text.hasSuffix(" ")
  }

  /// `text.hasPrefix(" ")`.
  private static func startsWithSpace(_ text: String) -> Bool {
    let bytes = text.utf8
    guard bytes.first == 0x20 else { return false }
    let next = bytes.index(after: bytes.startIndex)
    if next == bytes.endIndex || bytes[next] < 0x80 { return true }
    return text.hasPrefix(" ")
  }

  /// `String(text.drop(while: { $0 == " " }))`.
  private static func droppingLeadingSpaces(_ text: String) -> String {
    let bytes = text.utf8
    guard bytes.first == 0x20 else { return text }
    let end = bytes.firstIndex(where: { $0 != 0x20 }) ?? bytes.endIndex
    if end == bytes.endIndex { return "" }
    if bytes[end] < 0x80 { return String(Substring(bytes[end...])) }
    return String(text.drop(while: { $0 == " " }))
  }

  /// `text` after `while text.hasSuffix(" ") { text.removeLast() }`.
  private static func droppingTrailingSpaces(_ text: String) -> String {
    let bytes = text.utf8
    guard bytes.last == 0x20 else { return text }
    var end = bytes.endIndex
    while end > bytes.startIndex, bytes[bytes.index(before: end)] == 0x20 { end = bytes.index(before: end) }
    if end == bytes.startIndex { return "" }
    if bytes[bytes.index(before: end)] < 0x80 { return String(Substring(bytes[..<end])) }
    var text = text
    while text.hasSuffix(" ") { text.removeLast() }
    return text
  }

  private static func isBoundary(_ node: RichText) -> Bool {
    switch node {
    case .lineBreak, .paragraph, .quote, .code, .list, .video: true
    default: false
    }
  }

  /// Appends text, merged into the text before it (one space where both meet with one), while the list is built
  /// rather than in a second list afterwards.
  static func appendText(_ text: String, to out: inout [RichText]) {
    if text.isEmpty { return }
    guard let last = out.indices.last, case .text(var previous) = out[last] else {
      out.append(.text(text))
      return
    }
    // Drops the list's reference to the text so the append below extends it in place instead of copying it.
    out[last] = .lineBreak
    if endsWithSpace(previous) && startsWithSpace(text) {
      previous += text.dropFirst()
    } else {
      previous += text
    }
    out[last] = .text(previous)
  }

  /// Appends a finished list's nodes, merging a leading text into the text before it.
  static func appendContents(_ nodes: [RichText], to out: inout [RichText]) {
    guard case .text(let text)? = nodes.first else {
      out.append(contentsOf: nodes)
      return
    }
    appendText(text, to: &out)
    out.append(contentsOf: nodes.dropFirst())
  }

  /// Drops spaces next to line breaks and blocks, keeps at most two line breaks in a row, and at the edges of a
  /// block drops line breaks and spaces altogether; in place, on a list whose adjacent texts are already merged (as
  /// `appendText` and `appendContents` leave it).
  static func finish(_ nodes: inout [RichText], isBlock: Bool) {
    var written = 0
    var breaks = 0
    let count = nodes.count
    for index in 0..<count {
      // `written <= index`: the nodes after `index` are still the input ones.
      switch nodes[index] {
      case .text(var text):
        let atStart = written == 0 || isBoundary(nodes[written - 1])
        let atEnd = index + 1 == count || isBoundary(nodes[index + 1])
        if atStart && (isBlock || written > 0) { text = droppingLeadingSpaces(text) }
        if atEnd && (isBlock || index + 1 < count) { text = droppingTrailingSpaces(text) }
        if text.isEmpty { continue }
        nodes[written] = .text(text)
        written += 1
        breaks = 0
      case .lineBreak:
        if isBlock && written == 0 { continue }
        breaks += 1
        if breaks > 2 { continue }
        nodes[written] = .lineBreak
        written += 1
      default:
        if written != index { nodes[written] = nodes[index] }
        written += 1
        breaks = 0
      }
    }
    if isBlock {
      while written > 0, case .lineBreak = nodes[written - 1] { written -= 1 }
    }
    nodes.removeSubrange(written...)
  }
}

/// The forum's smilie image hosts (docs/forum-protocol.md#post-bodies); an image there with a title or alt is a smilie.
enum SmilieHosts {
  static func isSmilie(_ url: String) -> Bool {
    if let ascii = isSmilieASCII(url) { return ascii }
    return isSmilieByCharacters(url)
  }

  /// The same test on the bytes of an all-ASCII URL (where bytes and characters agree), without lower-casing and
  /// splitting into new strings; nil for any other URL.
  private static func isSmilieASCII(_ url: String) -> Bool? {
    var url = url
    return url.withUTF8 { bytes -> Bool? in
      guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
      func lower(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }
      var schemeEnd: Int?
      var i = 0
      while i + 3 <= bytes.count {
        if bytes[i] == UInt8(ascii: ":"), bytes[i + 1] == UInt8(ascii: "/"), bytes[i + 2] == UInt8(ascii: "/") {
          schemeEnd = i + 3
          break
        }
        i += 1
      }
      guard let start = schemeEnd else { return false }
      var end = start
      while end < bytes.count, bytes[end] != UInt8(ascii: "?"), bytes[end] != UInt8(ascii: "#") { end += 1 }
      var slash = start
      while slash < end, bytes[slash] != UInt8(ascii: "/") { slash += 1 }
      func equalsLowered(_ range: Range<Int>, _ text: StaticString) -> Bool {
        guard range.count == text.utf8CodeUnitCount else { return false }
        for (k, index) in range.enumerated() where lower(bytes[index]) != text.utf8Start[k] { return false }
        return true
      }
      func hasLoweredPrefix(_ range: Range<Int>, _ text: StaticString) -> Bool {
        guard range.count >= text.utf8CodeUnitCount else { return false }
        return equalsLowered(range.lowerBound..<(range.lowerBound + text.utf8CodeUnitCount), text)
      }
      // Path segments, empty ones omitted (as `split` does).
      var parts: [Range<Int>] = []
      var segment = slash
      while segment < end {
        while segment < end, bytes[segment] == UInt8(ascii: "/") { segment += 1 }
        let segmentStart = segment
        while segment < end, bytes[segment] != UInt8(ascii: "/") { segment += 1 }
        if segment > segmentStart { parts.append(segmentStart..<segment) }
      }
      let host = start..<slash
      if equalsLowered(host, "fi.somethingawful.com") {
        return parts.contains {
          equalsLowered($0, "smilies") || equalsLowered($0, "posticons") || equalsLowered($0, "customtitles")
        }
      }
      if equalsLowered(host, "i.somethingawful.com") {
        if parts.contains(where: {
          equalsLowered($0, "emot") || equalsLowered($0, "emoticons") || equalsLowered($0, "images")
        }) {
          return true
        }
        return parts.count >= 2 && equalsLowered(parts[0], "u")
          && (equalsLowered(parts[1], "adminuploads") || equalsLowered(parts[1], "garbageday"))
      }
      if equalsLowered(host, "forumimages.somethingawful.com") {
        return parts.contains { hasLoweredPrefix($0, "images") || equalsLowered($0, "posticons") }
      }
      return false
    }
  }

  private static func isSmilieByCharacters(_ url: String) -> Bool {
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
