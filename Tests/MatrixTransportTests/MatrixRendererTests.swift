import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import ChatRendering
import ForumModel
import Foundation
import Testing

@testable import MatrixTransport

@Suite("Matrix rendering: plain body and allow-listed HTML")
struct MatrixRendererTests {
  static let link =
    "https://forums.somethingawful.com/showthread.php?threadid=3526065&perpage=40&pagenumber=1#post411639264"
  static let threadLink = "https://forums.somethingawful.com/showthread.php?threadid=3526065&perpage=40"
  static let header = "A Thread — Goon, 2023-11-14 22:13 UTC"
  /// The HTML of the header above, links escaped.
  static let headerHTML =
    #"<p><b><a href="https://forums.somethingawful.com/showthread.php?threadid=3526065&amp;perpage=40">A Thread</a></b> — <b>Goon</b>, "#
    + #"<a href="https://forums.somethingawful.com/showthread.php?threadid=3526065&amp;perpage=40&amp;pagenumber=1#post411639264">2023-11-14 22:13 UTC</a></p>"#

  static func relay(
    _ body: [RichText], title: String = "A Thread", author: String = "Goon", excerptLength: Int = 400
  ) -> PostRelay {
    PostRelay(
      address: PostAddress(threadID: "3526065", postID: "411639264", index: 2), threadTitle: title, author: author,
      date: ChatDate(Date(timeIntervalSince1970: 1_700_000_000), timeZone: .gmt), link: link, threadLink: threadLink,
      body: body, excerptLength: excerptLength)
  }

  /// The one event of a relayed post.
  static func render(_ body: [RichText], title: String = "A Thread", author: String = "Goon") -> MatrixRenderer.Rendered
  {
    let events = MatrixRenderer().render(.post(relay(body, title: title, author: author)))
    #expect(events.count == 1)
    return events[0]
  }

  /// Every tag in the HTML with its attributes, to check against the allow-list.
  @Test("a post: the text lines as body; HTML with the title linking the thread and the time linking the post")
  func postShape() {
    let event = Self.render([.text("Hello there.")])
    #expect(event.body == "\(Self.header)\nHello there.\n\(Self.link)")
    #expect(event.html == Self.headerHTML + "Hello there.")
  }

  @Test("HTML keeps to the allow-list: no script, iframe, on* attributes, javascript: or data: links")
  func allowList() throws {
    let hostile: [RichText] = [
      .text("<script>alert(1)</script><iframe src=x></iframe><img src=x onerror=alert(1)>"),
      .link(url: "javascript:alert(1)", [.text("click me")]),
      .link(url: "JaVaScRiPt:alert(1)", []),
      .link(url: " javascript:alert(3)", [.text("spaced")]),
      .link(url: "data:text/html,<b>x</b>", [.text("data")]),
      .image(url: "javascript:alert(2)"),
      .link(url: "https://example.com/\" onmouseover=\"alert(1)", [.text("quoted")]),
      .video(url: "https://www.youtube.com/watch?v=x"),
    ]
    let html = try #require(Self.render(hostile).html)
    for (name, attributes) in HTMLTags.tags(in: html) {
      #expect(HTMLAllowList.allows(tag: name), "tag \(name) is not allowed")
      for attribute in attributes {
        #expect(HTMLAllowList.allows(tag: name, attribute: attribute), "attribute \(attribute) on \(name)")
      }
    }
    let lowered = html.lowercased()
    #expect(!lowered.contains("<script") && !lowered.contains("<iframe") && !lowered.contains("<img"))
    #expect(!lowered.contains("href=\"javascript") && !lowered.contains("href=\" javascript"))
    #expect(!lowered.contains("href=\"data:"))
    #expect(!html.contains("\" onmouseover"))
    #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    #expect(html.contains("click me") && html.contains("spaced") && html.contains("quoted"))
    #expect(
      html.contains(
        #"[video] <a href="https://www.youtube.com/watch?v=x">https://www.youtube.com/watch?v=x</a>"#))
  }

  @Test("room-wide mentions are defused in body and HTML, titles and author names; e-mail addresses stay")
  func mentions() {
    let event = Self.render(
      [.text("@room @everyone @here hi @alice:example.org, mail a@b.com")], title: "@room party", author: "@here")
    for text in [event.body, event.html ?? ""] {
      for mention in ["@room", "@everyone", "@here", "@alice"] { #expect(!text.contains(mention), "\(mention)") }
      #expect(text.contains("a@b.com"))
      #expect(text.contains("@\u{2060}room"))
    }
  }

  @Test("matrix.to and matrix: links do not become mention pills")
  func pills() {
    let event = Self.render([
      .link(url: "https://matrix.to/#/@admin:example.org", [.text("Admin")]),
      .link(url: "matrix:u/admin:example.org", [.text("Admin2")]),
    ])
    #expect(!(event.html ?? "").contains("matrix.to"))
    #expect(!(event.html ?? "").contains("href=\"matrix:"))
    #expect((event.html ?? "").hasSuffix("AdminAdmin2"))
  }

  @Test("control characters, bidi overrides and colour codes are stripped from body and HTML")
  func controls() {
    let event = Self.render(
      [.text("bell\u{07} esc\u{1B}[31m nul\u{00} rlo\u{202E}txt \u{85}end \u{03}04,12red")], title: "T\u{0003}itle")
    for text in [event.body, event.html ?? ""] {
      #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
      #expect(!text.contains("\u{202E}") && !text.contains("\u{85}"))
      #expect(!text.contains("04,12"))
    }
    #expect(event.body.hasPrefix("Title — "))
    #expect(event.html?.hasSuffix("bell esc[31m nul rlotxt end red") == true)
  }

  @Test("a quote is a blockquote under its author, the answer after it outside")
  func quotes() {
    let event = Self.render([
      .quote(author: "AgentF", postID: "411637955", [.text("what they said")]), .text("my answer"),
    ])
    #expect(
      event.html == Self.headerHTML + "<blockquote><p><b>AgentF posted:</b></p>what they said</blockquote>my answer")
    #expect(event.body == "\(Self.header)\n> AgentF posted:\n> what they said\nmy answer\n\(Self.link)")
  }

  @Test("a quote's \"X posted:\" links the quoted post when the relay carries its link; a quote without one is plain")
  func quoteLinks() {
    let source = "https://forums.somethingawful.com/showthread.php?goto=post&postid=411637955#post411637955"
    var relay = Self.relay([
      .quote(author: "AgentF", postID: "411637955", [.text("what they said")]),
      .quote(author: "Nobody", postID: "1", [.text("unknown source")]), .text("my answer"),
    ])
    relay.quoteLinks = ["411637955": source]
    let event = MatrixRenderer().render(.post(relay))[0]
    #expect(
      event.html
        == Self.headerHTML
        + #"<blockquote><p><b><a href="https://forums.somethingawful.com/showthread.php?goto=post&amp;postid=411637955#post411637955">AgentF posted:</a></b></p>what they said</blockquote>"#
        + "<blockquote><p><b>Nobody posted:</b></p>unknown source</blockquote>my answer")
    // The plain body is unchanged: the links are for the HTML only.
    #expect(event.body.contains("> AgentF posted:\n> what they said") && !event.body.contains("goto=post"))
  }

  @Test("a post that quotes and then answers keeps the answer when cut; the quote is shortened")
  func quoteThenAnswer() throws {
    let blah = Array(repeating: "blah", count: 16).joined(separator: " ")
    let event = Self.render([
      .quote(author: "Alice", postID: "1", [.text(String(repeating: "blah ", count: 100))]),
      .text("I disagree entirely."),
    ])
    let html = try #require(event.html)
    #expect(
      html == Self.headerHTML + "<blockquote><p><b>Alice posted:</b></p>\(blah)…</blockquote>I disagree entirely."
        + #"<p><a href="\#(Self.link.replacingOccurrences(of: "&", with: "&amp;"))">Read the whole post</a></p>"#)
    #expect(event.body == "\(Self.header)\n> Alice posted:\n> \(blah)…\nI disagree entirely.\n\(Self.link)")
  }

  @Test("a post that is only a quote says so")
  func onlyQuote() {
    let event = Self.render([.quote(author: "Alice", postID: "1", [.text("what she said")])])
    #expect(
      event.html
        == Self.headerHTML
        + "<blockquote><p><b>Alice posted:</b></p>what she said</blockquote><p><i>(only a quote, no words of their own)</i></p>"
    )
    #expect(event.body.contains("\n> what she said\n(only a quote, no words of their own)\n"))
  }

  @Test("a spoiler is a Matrix spoiler in HTML and a marker in the body")
  func spoilers() {
    let event = Self.render([.text("The end: "), .spoiler([.text("Rosebud")]), .text(".")])
    #expect(event.html == Self.headerHTML + #"The end: <span data-mx-spoiler="">Rosebud</span>."#)
    #expect(event.body == "\(Self.header)\nThe end: [spoiler].\n\(Self.link)")
  }

  @Test("an image is one token, [image] and its URL: a link in both body and HTML")
  func image() {
    let event = Self.render([
      .text("Look:"), .image(url: "https://i.imgur.com/cat.png"), .text(", cute. "),
      .smilie(code: ":nws:", url: "https://fi.somethingawful.com/nws.gif"), .image(url: "https://i.imgur.com/dog.png"),
      .smilie(code: ":v:", url: nil), .text(" too"),
    ])
    #expect(
      event.body
        == "\(Self.header)\nLook: [image] https://i.imgur.com/cat.png, cute. :nws: [image] https://i.imgur.com/dog.png :v: too\n\(Self.link)"
    )
    #expect(
      event.html
        == Self.headerHTML
        + #"Look: [image] <a href="https://i.imgur.com/cat.png">https://i.imgur.com/cat.png</a>, cute. :nws: "#
        + #"[image] <a href="https://i.imgur.com/dog.png">https://i.imgur.com/dog.png</a> :v: too"#)
    #expect(!(event.html ?? "").contains("nws.gif") && !(event.html ?? "").contains("<img"))
  }

  @Test("code is <pre><code>, never a quote; the body has its lines")
  func code() {
    let event = Self.render([.text("Try:"), .code("if x {\n    run()\n}"), .text("Works.")])
    #expect(event.html == Self.headerHTML + "Try:<pre><code>if x {\n    run()\n}</code></pre>Works.")
    #expect(event.body == "\(Self.header)\nTry:\nif x {\n    run()\n}\nWorks.\n\(Self.link)")
    let oneLine = Self.render([.code("make test")])
    #expect(oneLine.html == Self.headerHTML + "<pre><code>make test</code></pre>")
    for text in [event.body, event.html ?? ""] {
      #expect(!text.contains("posted:") && !text.contains("blockquote"))
    }
  }

  @Test("a long post is cut with a link to the whole post; a short one is not")
  func longPosts() {
    let long = Self.render([.paragraph([.text(String(repeating: "word ", count: 400))])])
    #expect(long.html?.contains("Read the whole post") == true)
    #expect(long.body.hasSuffix("word…\n\(Self.link)"))
    #expect(Self.render([.text("short")]).html?.contains("Read the whole post") == false)
  }

  @Test("a private message's cut excerpt links to the whole message, not a post; a short one has no link")
  func privateMessageExcerpt() {
    func alert(_ text: String) -> ChatMessage {
      .privateMessage(
        PrivateMessageAlert(
          id: "7001", subject: "About the thread", sender: "Goon",
          date: ChatDate(Date(timeIntervalSince1970: 1_700_000_000), timeZone: .gmt),
          link: "https://forums.somethingawful.com/private.php?action=show&privatemessageid=7001",
          body: [.paragraph([.text(text)])], excerptLength: 100))
    }
    let long = MatrixRenderer().render(alert(String(repeating: "word ", count: 100)))
    #expect(long.count == 1)
    let html = long.first?.html ?? ""
    #expect(
      html.hasSuffix(
        #"…</p><p><a href="https://forums.somethingawful.com/private.php?action=show&amp;privatemessageid=7001">"#
          + "Read the whole message</a></p>"), "\(html)")
    #expect(!html.contains("Read the whole post"))
    let short = MatrixRenderer().render(alert("Thanks for the bot."))
    #expect(short.first?.html?.contains("Read the whole") == false)
    #expect(short.first?.html?.contains("Thanks for the bot.") == true)
  }

  @Test("a relay too large for one event drops its HTML, then shortens its body and says so, between characters")
  func lastResort() throws {
    let renderer = MatrixRenderer(maxBytes: 300)
    var relay = Self.relay([.text(String(repeating: "🎉", count: 400))])
    relay.excerptLength = 10_000
    let events = renderer.render(.post(relay))
    let event = try #require(events.first)
    #expect(events.count == 1)
    #expect(event.html == nil)
    #expect(event.body.utf8.count <= 300)
    #expect(event.body.hasSuffix("\n… (too long for one Matrix message)"))
    #expect(event.body.hasPrefix(Self.header + "\n🎉"))
  }

  @Test("summaries, announcements, new threads and digests in HTML")
  func otherRelays() {
    let renderer = MatrixRenderer()
    let summary = PostSummary(
      threadTitle: "Busy @room", threadLink: "https://f.example/t", count: 12, authors: ["a", "b", "a", "c", "d", "e"],
      latestAuthor: "e", latestLink: "https://f.example/p", afterReplayCap: false)
    #expect(
      renderer.render(.summary(summary))[0].html
        == #"12 new posts in <b><a href="https://f.example/t">Busy @⁠room</a></b> by a, b, c and 2 others (<a href="https://f.example/p">latest by e</a>)"#
    )
    let announcement = AnnouncementRelay(
      title: "Rules", author: "Lowtax", date: nil, link: "https://f.example/a", body: [.text("Be nice")],
      excerptLength: 400)
    #expect(
      renderer.render(.announcement(announcement))[0].html
        == #"<p>Announcement: <b><a href="https://f.example/a">Rules</a></b> — Lowtax</p>Be nice"#)
    let notice = NewThreadNotice(forumName: "GBS", title: "<New>", author: "bob", link: "https://f.example/n")
    #expect(
      renderer.render(.newThread(notice))[0].html
        == #"New thread in GBS: <a href="https://f.example/n">&lt;New&gt;</a> by bob"#)
    let digest = Digest(
      title: "Digest", entries: [.init(threadTitle: "T", postCount: 2, authors: ["x"], link: "https://f.example/1")])
    #expect(
      renderer.render(.digest(digest))[0].html
        == #"<p><b>Digest</b></p><ul><li><b><a href="https://f.example/1">T</a></b>: 2 new posts by x</li></ul>"#)
  }

  @Test("answers: links clickable, unsafe links plain text, lists and fields")
  func answers() throws {
    var answer = CommandAnswer()
    answer.add(.text("See "), .link(label: "thread", url: "https://f.example/t?a=1&b=2"))
    answer.add(.link(label: "bad", url: "javascript:alert(1)"))
    answer.add(item: [.text("one")])
    answer.add(item: [.code("watch 2")])
    answer.add(field: "Transport", .bold("connected"))
    let events = MatrixRenderer().render(.answer(answer))
    let event = try #require(events.first)
    #expect(events.count == 1)
    #expect(
      event.body
        == "See thread https://f.example/t?a=1&b=2\nbad javascript:alert(1)\n• one\n• watch 2\nTransport: connected")
    #expect(
      event.html
        == #"<p>See <a href="https://f.example/t?a=1&amp;b=2">thread</a></p><p>bad</p><ul><li>one</li><li><code>watch 2</code></li></ul><p><b>Transport:</b> <b>connected</b></p>"#
    )
  }

  @Test("quoted text in an answer is a blockquote in HTML and \"> \" lines in the body; an excerpt keeps its quotes")
  func answerQuotes() throws {
    var answer = CommandAnswer("Reply as the bot account:")
    answer.lines.append(.quote(["first line", "<second> & last"]))
    answer.lines.append(
      .excerpt(
        body: [.quote(author: "Alice", postID: "1", [.text("earlier words")]), .text("the message")],
        maxCharacters: 400))
    answer.lines.append(.excerpt(body: [], maxCharacters: 400))
    let event = try #require(MatrixRenderer().render(.answer(answer)).first)
    #expect(
      event.body
        == "Reply as the bot account:\n> first line\n> <second> & last\n> > Alice posted:\n> > earlier words\n"
        + "> the message\n> (no text)")
    #expect(
      event.html
        == "<p>Reply as the bot account:</p><blockquote>first line<br>&lt;second&gt; &amp; last</blockquote>"
        + "<blockquote><blockquote><p><b>Alice posted:</b></p>earlier words</blockquote>the message</blockquote>"
        + "<blockquote><p><i>(no text)</i></p></blockquote>")
  }

  @Test("answers are never cut: 30 items are one event of 31 lines")
  func thirtyItems() throws {
    var answer = CommandAnswer("30 bookmarks:")
    for index in 1...30 { answer.add(item: [.link(label: "Thread \(index)", url: "https://f.example/\(index)")]) }
    let events = MatrixRenderer().render(.answer(answer))
    let event = try #require(events.first)
    #expect(events.count == 1)
    #expect(event.body.split(separator: "\n").count == 31)
    #expect(event.html?.components(separatedBy: "<li>").count == 31)
  }

  @Test("a very long answer is split between its lines over several events, nothing lost, each event small enough")
  func longAnswer() throws {
    var answer = CommandAnswer("Everything:")
    for index in 1...2000 {
      answer.add(item: [.text("entry \(index) "), .link(label: "the thread", url: "https://f.example/\(index)?a&b")])
    }
    let renderer = MatrixRenderer()
    let events = renderer.render(.answer(answer))
    #expect(events.count > 1)
    #expect(events.map(\.body).joined(separator: "\n") == TextRendering.lines(.answer(answer)).joined(separator: "\n"))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    for event in events {
      let html = try #require(event.html, "every part keeps its HTML")
      #expect(event.body.utf8.count <= renderer.maxBytes && html.utf8.count <= renderer.maxBytes)
      #expect(html.hasPrefix("<") && html.hasSuffix(">"), "each part's HTML stands alone")
      let content = MatrixMessageContent.content(
        for: OutgoingMessage(.answer(answer)), rendered: event, thread: nil, suppressPreviews: true)
      // Matrix refuses events over 65,536 bytes; the content leaves room for the rest of the event.
      #expect(try encoder.encode(content).count < 60_000)
    }
    // An answer of a few kilobytes stays one event.
    var medium = CommandAnswer()
    for index in 1...100 { medium.add(item: [.text("entry \(index) with some words to read")]) }
    #expect(renderer.render(.answer(medium)).count == 1)
  }
}
