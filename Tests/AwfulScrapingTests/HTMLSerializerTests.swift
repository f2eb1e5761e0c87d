import AwfulBotTestKit
import CLibXML2
import ForumModel
import Foundation
import Testing

@testable import AwfulScraping

/// `HTMLSerializer` must write what libxml2's serialiser writes, byte for byte: posts keep their HTML through it.
struct HTMLSerializerTests {
  /// Every element's children, serialised both ways; `compared` counts the elements the serialiser did not hand
  /// back to libxml2.
  static func mismatches(in document: HTMLDocument, compared: inout Int) -> [String] {
    var mismatches: [String] = []
    guard let root = document.root else { return [] }
    var elements = [root]
    root.walkDescendants { node in
      if node.isElement { elements.append(node) }
      return .descend
    }
    for element in elements {
      let children = element.children
      guard let mine = HTMLSerializer.withBytes(of: children.map(\.raw), { String(decoding: $0, as: UTF8.self) })
      else { continue }
      compared += 1
      let theirs = HTMLNode.serializeWithLibXML2(children.map(\.raw)) { String(decoding: $0, as: UTF8.self) }
      if mine != theirs {
        mismatches.append("<\(element.name)>: ours \(mine.debugDescription) libxml2 \(theirs.debugDescription)")
      }
    }
    return mismatches
  }

  @Test(arguments: [
    "<p title='say \"hi\"'>a</p>",
    "<p title=\"it's\">b</p>",
    "<p title='both &quot; and &#39;'>c</p>",
    "<a href=' x y/ü?a=1&amp;b=<2>#f' name='n m'>link</a><img src=\"a b.gif\" alt='<&>'>",
    "<form action='/do it'><input type=checkbox checked disabled=disabled value=''><select multiple><option selected>1</select></form>",
    "<p>&lt;tag&gt; &amp; &copy; \u{1}\u{2}\t\r\n text ü €</p>",
    "<script>if (a < b && c > d) {}</script><style>p > a { color: red }</style>",
    "<div title='<!-- ssi -->x' data-x='&{macro}; &{open'>y</div>",
    "<ul><li></li><li>x</li></ul><br><hr><p></p><embed><area><col><param><base><link><meta>",
    "<?php echo 1 ?><!-- a comment --><p>after</p>",
    "<table><tr><td nowrap>1</td><td noWrap=''>2</td></tr></table>",
    "<p>unterminated <b>bold <i>both</p> after",
    "<svg:rect xmlns:svg='http://www.w3.org/2000/svg' svg:width='3'></svg:rect>",
  ])
  func matchesLibXML2OnOddMarkup(html: String) throws {
    let document = try HTMLDocument(string: "<html><body>\(html)</body></html>")
    var compared = 0
    #expect(Self.mismatches(in: document, compared: &compared) == [])
    #expect(compared > 0)
  }

  /// Texts and attribute values made of what the encoder treats specially (`<`, `>`, `&`, quotes, braces, comment
  /// dashes, control characters, UTF-8) around plain runs long enough for its word-at-a-time path.
  @Test func matchesLibXML2OnGeneratedText() throws {
    let pieces = [
      "plain text ", "<", ">", "&", "&amp;", "\"", "'", "{", "}", "&{x}", "<!--", "-->", "\u{1}", "\t", "\r\n",
      "é", "€", "😀", " ", "abcdefghij",
    ]
    var generator = SplitMix64(seed: 17)
    for _ in 0..<300 {
      let text = (0..<Int(generator.next() % 12)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }
        .joined()
      let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
        .replacingOccurrences(of: "<", with: "&lt;")
      let html = "<p title=\"\(escaped)\"><a href=\"\(escaped)\">\(escaped)</a>\(text)</p><script>\(text)</script>"
      let document = try HTMLDocument(string: "<html><body>\(html)</body></html>")
      var compared = 0
      #expect(Self.mismatches(in: document, compared: &compared) == [], "\(text.debugDescription)")
    }
  }

  @Test func matchesLibXML2OnOwnPages() throws {
    let folder = try #require(Bundle.module.url(forResource: "Pages", withExtension: nil))
    var compared = 0
    // An empty page has no document to compare.
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    where !(try OwnPages.data(name)).isEmpty {
      let document = try HTMLDocument(data: try OwnPages.data(name))
      #expect(Self.mismatches(in: document, compared: &compared) == [], "\(name)")
    }
    #expect(compared > 100)
  }

  @Test(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
  func matchesLibXML2OnCapturedPages() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: CapturedPages.directory.path)
    for name in names.sorted() where name.hasSuffix(".html") {
      let document = try HTMLDocument(data: try CapturedPages.data(name))
      var compared = 0
      let mismatches = Self.mismatches(in: document, compared: &compared)
      #expect(mismatches.isEmpty, "\(name): \(mismatches.prefix(3))")
    }
  }
}
