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

  package func write(_ nodes: [RichText], into writer: inout HTMLWriter) {
    for node in nodes { write(node, into: &writer) }
  }

  private func write(_ node: RichText, into writer: inout HTMLWriter) {
    switch node {
    case .text(let text):
      writer.text(text)
    case .lineBreak:
      writer.element("br")
    case .paragraph(let children):
      writer.element("p") { write(children, into: &$0) }
    case .bold(let children):
      writer.element("b") { write(children, into: &$0) }
    case .italic(let children):
      writer.element("i") { write(children, into: &$0) }
    case .underline(let children):
      writer.element("u") { write(children, into: &$0) }
    case .strike(let children):
      writer.element("del") { write(children, into: &$0) }
    case .link(let url, let children):
      writer.link(url) { inner in
        if children.isEmpty { inner.text(url) } else { write(children, into: &inner) }
      }
    case .image(let url):
      // The same token as the plain body: "[image]" linking to the picture (clients do not load remote images).
      writer.text("[image] ")
      writer.link(url) { $0.text(url) }
    case .video(let url):
      writer.text("[video] ")
      writer.link(url) { $0.text(url) }
    case .smilie(let code, _):
      writer.text(code)
    case .code(let code):
      if code.contains("\n") {
        writer.element("pre") { pre in pre.element("code") { $0.text(code) } }
      } else {
        writer.element("code") { $0.text(code) }
      }
    case .spoiler(let children):
      writer.element("span", attributes: ["data-mx-spoiler": ""]) { write(children, into: &$0) }
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
        write(children, into: &quote)
      }
    case .list(let items):
      writer.element("ul") { list in
        for item in items {
          list.element("li") { write(item, into: &$0) }
        }
      }
    }
  }
}
