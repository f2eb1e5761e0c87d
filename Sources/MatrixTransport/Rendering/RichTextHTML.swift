import ChatBridge
import ForumModel
import Foundation

/// Renders a rich-text tree as allow-listed HTML (Matrix `formatted_body`): quotes as blockquotes under their author,
/// spoilers as Matrix spoilers, images and videos as links, smilies as their text code, code as `<pre><code>`.
package struct RichTextHTML: Sendable {
  /// The forum's link for a quoted post (the quote's "X posted:" links there), when the renderer knows how to
  /// build one; quotes of posts are otherwise plain text.
  package var quoteLink: @Sendable (String) -> String?

  package init(quoteLink: @escaping @Sendable (String) -> String? = { _ in nil }) {
    self.quoteLink = quoteLink
  }

  package func render(_ nodes: [RichText]) -> String {
    var writer = HTMLWriter()
    write(nodes, into: &writer)
    return writer.html
  }

  /// Writes `nodes` as the content of a block (the excerpt, a quote, a paragraph, a list item).
  package func write(_ nodes: [RichText], into writer: inout HTMLWriter) {
    write(nodes, block: true, into: &writer)
  }

  /// - Parameter block: the nodes fill a block. Line breaks that would only add an empty line there are left out:
  ///   at its start or end, and right after a block inside it (a quote, code, a paragraph, a list), where the next
  ///   line starts anyway — the forum's `</div><br />` after a quote, or the break left behind when an excerpt drops
  ///   a quote inside a quote. The plain body never shows those empty lines either.
  private func write(_ nodes: [RichText], block: Bool, into writer: inout HTMLWriter) {
    let nodes = block ? Self.withoutEmptyLines(nodes) : nodes
    var afterToken = false
    for node in nodes {
      // As in the plain body: a word or a smilie right after "[image] url" is spaced from the URL, punctuation
      // is not.
      if afterToken {
        switch node {
        case .text(let text) where text.first.map { $0.isLetter || $0.isNumber } ?? false: writer.text(" ")
        case .smilie: writer.text(" ")
        default: break
        }
      }
      write(node, into: &writer)
      switch node {
      case .image, .thumbnail, .video, .attachment: afterToken = true
      default: afterToken = false
      }
    }
  }

  /// "[image] url" / "[video] url": one token, spaced from the word before it.
  private func token(_ marker: String, _ url: String, into writer: inout HTMLWriter) {
    if Self.runsOn(writer.html) { writer.text(" ") }
    writer.text(marker + " ")
    writer.link(url) { $0.text(url) }
  }

  /// Whether text written next would run on from a word: after text or an inline element ("</b>"), not after
  /// whitespace, a block or a line break. Text is always escaped, so every `<` starts a tag.
  private static func runsOn(_ html: String) -> Bool {
    guard let last = html.last, !last.isWhitespace else { return false }
    guard last == ">" else { return true }
    guard let open = html.lastIndex(of: "<") else { return true }
    let tag = html[html.index(after: open)..<html.index(before: html.endIndex)]
    return ["/b", "/i", "/u", "/s", "/del", "/a", "/code", "/span"].contains(tag)
  }

  private func write(_ node: RichText, into writer: inout HTMLWriter) {
    switch node {
    case .text(let text):
      writer.text(text)
    case .lineBreak:
      writer.element("br")
    case .paragraph(let children):
      writer.element("p") { write(children, block: true, into: &$0) }
    case .bold(let children):
      writer.element("b") { write(children, block: false, into: &$0) }
    case .italic(let children):
      writer.element("i") { write(children, block: false, into: &$0) }
    case .underline(let children):
      writer.element("u") { write(children, block: false, into: &$0) }
    case .strike(let children):
      writer.element("del") { write(children, block: false, into: &$0) }
    case .link(let url, let children):
      writer.link(url) { inner in
        if children.isEmpty { inner.text(url) } else { write(children, block: false, into: &inner) }
      }
    case .image(let url), .thumbnail(let url), .attachment(_, let url):
      // The same token as the plain body: "[image]" and the picture's URL as a link (remote images are not loaded).
      token("[image]", url, into: &writer)
    case .video(let url):
      token("[video]", url, into: &writer)
    case .smilie(let code, _):
      writer.text(code)
    case .code(let code):
      // A code block (the scraper makes inline code text): a block in HTML too, even of one line, so it stands on
      // its own line as it does in the plain body.
      writer.element("pre") { pre in pre.element("code") { $0.text(code) } }
    case .spoiler(let children):
      writer.element("span", attributes: ["data-mx-spoiler": ""]) { write(children, block: false, into: &$0) }
    case .quote(let author, let postID, let children):
      writer.element("blockquote") { quote in
        if let author, !author.isEmpty {
          quote.element("p") { header in
            header.element("b") { bold in
              if let postID, let link = quoteLink(postID) {
                bold.link(link) { $0.text("\(author) posted:") }
              } else {
                bold.text("\(author) posted:")
              }
            }
          }
        }
        write(children, block: true, into: &quote)
      }
    case .list(let items):
      writer.element("ul") { list in
        for item in items {
          list.element("li") { write(item, block: true, into: &$0) }
        }
      }
    }
  }

  /// `nodes` without the line breaks that would only make an empty line in a block: leading, trailing, and right
  /// after a block node (text of whitespace alone between them does not count).
  static func withoutEmptyLines(_ nodes: [RichText]) -> [RichText] {
    var kept: [RichText] = []
    var lineStarts = true  // at the block's start or right after a block node
    for node in nodes {
      switch node {
      case .lineBreak where lineStarts:
        continue
      case .text(let text) where text.allSatisfy(\.isWhitespace):
        kept.append(node)
      case .quote, .code, .paragraph, .list:
        kept.append(node)
        lineStarts = true
      default:
        kept.append(node)
        lineStarts = false
      }
    }
    while let last = kept.last {
      switch last {
      case .lineBreak: kept.removeLast()
      case .text(let text) where text.allSatisfy(\.isWhitespace): kept.removeLast()
      default: return kept
      }
    }
    return kept
  }
}
