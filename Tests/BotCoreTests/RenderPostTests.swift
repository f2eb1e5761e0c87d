import AwfulBotTestKit
import ChatBridge
import AwfulScraping
import Foundation
import Testing

@testable import BotCore

@Suite("Rendering posts for chat")
struct RenderPostTests {
  let renderer = PostRenderer(baseURL: URL(string: "https://forums.somethingawful.com/")!, excerptLength: 400)
  let html = ChatCapabilities(html: true, edits: true, threads: false, maxMessageBytes: 65_000, notices: true)

  func post(_ body: [RichText], author: String = "Goon") -> Post {
    Post(
      id: "411639264", index: 2, author: PostAuthor(name: author), date: Date(timeIntervalSince1970: 1_700_000_000),
      body: body)
  }

  func render(
    _ body: [RichText], capabilities: ChatCapabilities? = nil, title: String = "A Thread", author: String = "Goon"
  ) -> OutgoingMessage {
    renderer.render(
      post: post(body, author: author), threadID: "3526065", threadTitle: title, capabilities: capabilities ?? html)
  }

  /// Every tag in the HTML with its attributes, to check against the allow-list.
  func tags(in html: String) -> [(name: String, attributes: [String])] {
    let tag = try! NSRegularExpression(pattern: #"<(/?)([a-zA-Z0-9]+)([^>]*)>"#)
    let attribute = try! NSRegularExpression(pattern: #"\s([a-zA-Z-]+)="[^"]*""#)
    let ns = html as NSString
    return tag.matches(in: html, range: NSRange(location: 0, length: ns.length)).map { match in
      let name = ns.substring(with: match.range(at: 2))
      let rest = ns.substring(with: match.range(at: 3))
      let names = attribute.matches(in: rest, range: NSRange(location: 0, length: (rest as NSString).length)).map {
        (rest as NSString).substring(with: $0.range(at: 1))
      }
      return (name, names)
    }
  }

  @Test("plain text has title, author, time, excerpt and the post link")
  func plainShape() {
    let message = render([.text("Hello there.")], capabilities: .plainText)
    #expect(message.kind == .relay)
    #expect(message.html == nil)
    #expect(
      message.text == """
        A Thread — Goon, 2023-11-14 22:13 UTC
        Hello there.
        https://forums.somethingawful.com/showthread.php?threadid=3526065&perpage=40&noseen=1#post411639264
        """)
    #expect(message.link == renderer.postLink(threadID: "3526065", postID: "411639264"))
    #expect(message.threadKey == "3526065")
  }

  @Test("link helpers")
  func links() {
    #expect(
      renderer.postLink(threadID: "1", postID: "2")
        == "https://forums.somethingawful.com/showthread.php?threadid=1&perpage=40&noseen=1#post2")
    #expect(
      renderer.threadLink(threadID: "1")
        == "https://forums.somethingawful.com/showthread.php?threadid=1&perpage=40&noseen=1")
    let noSlash = ForumLinks(baseURL: URL(string: "http://127.0.0.1:8080")!)
    #expect(
      noSlash.threadLink(threadID: "5", page: 2)
        == "http://127.0.0.1:8080/showthread.php?threadid=5&perpage=40&noseen=1&pagenumber=2")
  }

  @Test("HTML keeps to the allow-list: no script, iframe, on* attributes or javascript: links")
  func allowList() {
    let hostile: [RichText] = [
      .text("<script>alert(1)</script><iframe src=x></iframe><img src=x onerror=alert(1)>"),
      .link(url: "javascript:alert(1)", [.text("click me")]),
      .link(url: "JaVaScRiPt:alert(1)", []),
      .link(url: "data:text/html,<b>x</b>", [.text("data")]),
      .image(url: "javascript:alert(2)"),
      .link(url: "https://example.com/\" onmouseover=\"alert(1)", [.text("quoted")]),
      .video(url: "https://www.youtube.com/watch?v=x"),
    ]
    let message = render(hostile)
    let body = message.html ?? ""
    for (name, attributes) in tags(in: body) {
      #expect(HTMLAllowList.allows(tag: name), "tag \(name) is not allowed")
      for attribute in attributes {
        #expect(HTMLAllowList.allows(tag: name, attribute: attribute), "attribute \(attribute) on \(name)")
      }
    }
    #expect(!body.lowercased().contains("<script"))
    #expect(!body.lowercased().contains("<iframe"))
    #expect(!body.lowercased().contains("javascript:alert(1)\""))
    #expect(!body.contains("href=\"javascript"))
    #expect(!body.contains("href=\"data:"))
    #expect(!body.contains("\" onmouseover"))
    #expect(body.contains("&lt;script&gt;"))
    #expect(body.contains("click me"))
    #expect(body.contains(#"<a href="https://www.youtube.com/watch?v=x">[video]</a>"#))
  }

  @Test("room-wide mentions are defused in text, titles and author names")
  func mentions() {
    let message = render(
      [.text("@room @everyone @here hi @alice:example.org, mail a@b.com")], title: "@room party", author: "@here")
    for text in [message.text, message.html ?? ""] {
      #expect(!text.contains("@room"))
      #expect(!text.contains("@everyone"))
      #expect(!text.contains("@here"))
      #expect(!text.contains("@alice"))
      #expect(text.contains("a@b.com"))
    }
    #expect(message.text.contains("@\u{2060}room"))
  }

  @Test("matrix.to user links do not become mention pills")
  func matrixPills() {
    let message = render([.link(url: "https://matrix.to/#/@admin:example.org", [.text("Admin")])])
    #expect(!(message.html ?? "").contains("matrix.to"))
  }

  @Test("control characters and bidi overrides are stripped")
  func controls() {
    let message = render([.text("bell\u{07} esc\u{1B}[31m nul\u{00} rlo\u{202E}txt \u{85}end")], title: "T\u{0003}itle")
    for text in [message.text, message.html ?? ""] {
      #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
      #expect(!text.contains("\u{202E}"))
      #expect(!text.contains("\u{85}"))
    }
    #expect(message.text.hasPrefix("Title — "))
  }

  @Test("quotes become blockquotes under their author")
  func quotes() {
    let message = render([
      .quote(author: "AgentF", postID: "411637955", [.text("what they said")]), .text("my answer"),
    ])
    let body = message.html ?? ""
    #expect(body.contains("<blockquote>"))
    #expect(body.contains("AgentF posted:</a></b></p>what they said</blockquote>"))
    #expect(body.contains("goto=post&amp;postid=411637955"))
    #expect(message.text.contains("> AgentF posted:\n> what they said\nmy answer"))
  }

  @Test("spoilers are hidden: a Matrix spoiler in HTML, a marker in plain text")
  func spoilers() {
    let message = render([.text("The end:"), .spoiler([.text("Rosebud")])])
    #expect(message.html?.contains(#"<span data-mx-spoiler="">Rosebud</span>"#) == true)
    #expect(!message.text.contains("Rosebud"))
    #expect(message.text.contains("[spoiler]"))
  }

  @Test("images are links, smilies their codes, code is code")
  func media() {
    let message = render([
      .image(url: "https://i.imgur.com/cat.png"), .smilie(code: ":nws:", url: "https://fi.somethingawful.com/nws.gif"),
      .code("let x = 1\nlet y = 2"),
    ])
    let body = message.html ?? ""
    #expect(body.contains(#"<a href="https://i.imgur.com/cat.png">[image]</a>"#))
    #expect(body.contains(":nws:") && !body.contains("nws.gif"))
    #expect(body.contains("<pre><code>let x = 1\nlet y = 2</code></pre>"))
    #expect(message.text.contains("[image: https://i.imgur.com/cat.png]"))
    #expect(message.text.contains(":nws:"))
  }

  @Test("long posts are cut with a link to the whole post")
  func longPosts() {
    let long = String(repeating: "word ", count: 400)
    let message = render([.paragraph([.text(long)])])
    let excerpt = message.text.split(separator: "\n")[1]
    #expect(excerpt.count <= 401)
    #expect(excerpt.hasSuffix("…"))
    #expect(message.text.hasSuffix("#post411639264"))
    #expect(message.html?.contains("Read the whole post") == true)
    let short = render([.text("short")])
    #expect(short.html?.contains("Read the whole post") == false)
  }

  @Test("the excerpt length is configurable")
  func excerptLength() {
    let short = PostRenderer(baseURL: URL(string: "https://forums.somethingawful.com/")!, excerptLength: 20)
    let message = short.render(
      post: post([.text("one two three four five six seven eight nine ten")]), threadID: "1", threadTitle: "T",
      capabilities: .plainText)
    #expect(message.text.contains("one two three four…"))
  }

  @Test("messages respect the transport's byte limit, plain and HTML", arguments: [120, 300, 512, 1000])
  func byteLimit(_ limit: Int) {
    let capabilities = ChatCapabilities(
      html: true, edits: false, threads: false, maxMessageBytes: limit, notices: false)
    let body: [RichText] = [
      .quote(author: "Someone", postID: "1", [.text(String(repeating: "quoted ünïcödé 🎉 ", count: 40))]),
      .text(String(repeating: "答え ", count: 300)),
    ]
    let message = render(body, capabilities: capabilities, title: String(repeating: "Long title ", count: 5))
    #expect(message.text.utf8.count <= limit)
    #expect((message.html?.utf8.count ?? 0) <= limit)
    #expect(message.text.hasSuffix("#post411639264"))
  }

  @Test("the last-resort cut never splits a character")
  func characterBoundaries() {
    let message = MessageFit.forceFit(
      OutgoingMessage(kind: .relay, text: String(repeating: "🎉", count: 100)),
      ChatCapabilities(html: false, edits: false, threads: false, maxMessageBytes: 30, notices: false))
    #expect(message.text.utf8.count <= 30)
    #expect(message.text.hasSuffix("…"))
    #expect(message.text.dropLast().allSatisfy { $0 == "🎉" })
  }
}
