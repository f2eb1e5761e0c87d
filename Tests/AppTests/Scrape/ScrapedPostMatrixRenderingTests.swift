import AwfulBotMatrixTestKit
import AwfulScraping
import ChatBridge
import ForumModel
import Foundation
import MatrixTransport
import Testing

/// The scraper and the Matrix renderer together: whatever a forum page holds reaches a room as allow-listed HTML.
/// (Here, where both modules are linked: the transport's own tests build without the scraper.)
@Suite("Scraped posts rendered for Matrix")
struct ScrapedPostMatrixRenderingTests {
  static let link =
    "https://forums.somethingawful.com/showthread.php?threadid=4000001&perpage=40&pagenumber=1#post500000001"
  static let threadLink = "https://forums.somethingawful.com/showthread.php?threadid=4000001&perpage=40"

  @Test("a scraped hostile post: whatever the forum page holds, the HTML is allow-listed")
  func scrapedHostilePost() throws {
    let body = """
      Hi @room <script>alert('x')</script><iframe src="https://evil.example/"></iframe>
      <a href="javascript:alert(1)" onclick="alert(2)">click</a>
      <img src="https://i.example/cat.png" onerror="alert(3)" style="width:9999px">
      <b onmouseover="alert(4)">bold</b> <span style="color:red" class="x">styled</span>
      <div class="bbc-block"><h4><a class="quote_link" href="/showthread.php?goto=post&postid=411637955#post411637955">AgentF posted:</a></h4><blockquote>quoted</blockquote></div>
      <span class="bbc-spoiler">secret</span>
      """
    let event = try Self.scrapedEvent(body: body)
    let html = try #require(event.html)
    for forbidden in [
      "<script", "<iframe", "onclick", "onerror", "onmouseover", "style=", "class=", "javascript:", "<img", "<div",
      "<h4",
    ] {
      #expect(!html.lowercased().contains(forbidden), "\(forbidden) in \(html)")
    }
    for (name, attributes) in HTMLTags.tags(in: html) {
      #expect(HTMLAllowList.allows(tag: name), "tag \(name)")
      for attribute in attributes { #expect(HTMLAllowList.allows(tag: name, attribute: attribute)) }
    }
    #expect(!html.contains("@room") && !event.body.contains("@room"))
    #expect(html.contains("<b>bold</b>"))
    #expect(html.contains("<blockquote><p><b>AgentF posted:</b></p>quoted</blockquote>"))
    #expect(html.contains(#"[image] <a href="https://i.example/cat.png">https://i.example/cat.png</a>"#))
    #expect(html.contains(#"<span data-mx-spoiler="">secret</span>"#))
    #expect(!event.body.contains("secret"))
  }

  @Test("a scraped [code] block is code: <pre><code> in HTML, its lines in the body, never \"code posted:\"")
  func scrapedCode() throws {
    let event = try Self.scrapedEvent(
      body: """
        Try this:<br>
        <div class="bbc-block code"><h5>code:</h5><pre>for i in 1...3 {
            print(i &lt; 2)
        }</pre></div>
        Works?
        """)
    let html = try #require(event.html)
    #expect(html.contains("<pre><code>for i in 1...3 {\n    print(i &lt; 2)\n}</code></pre>"))
    #expect(event.body.contains("\nfor i in 1...3 {\n    print(i < 2)\n}\n"))
    for text in [html, event.body] { #expect(!text.contains("code posted") && !text.contains("blockquote")) }
  }

  static func scrapedEvent(body: String) throws -> MatrixRenderer.Rendered {
    let page = Data(
      """
      <!DOCTYPE html><html><head><title>Hostile - The Something Awful Forums</title></head>
      <body class="showthread" data-forum="273" data-thread="4000001">
      <div class="breadcrumbs"><a href="forumdisplay.php?forumid=273">General Bullshit</a> &gt;
      <a href="showthread.php?threadid=4000001" class="bclast">Hostile</a></div>
      <div id="thread" class="thread:4000001">
      <table class="post" id="post500000001" data-idx="1"><tr class="altcolor1">
      <td class="userinfo userid-42"><dl class="userinfo"><dt class="author">Mallory</dt></dl></td>
      <td class="postbody"><!-- BeginContentMarker -->\(body)<!-- EndContentMarker --></td></tr>
      <tr class="altcolor1"><td class="postdate"><a href="#post500000001">#</a> Mar  1, 2025  9:05 AM</td>
      <td class="postlinks"></td></tr></table></div></body></html>
      """.utf8)
    let scraped = try PostsPageScraper().scrape(
      data: page, url: URL(string: "https://forums.somethingawful.com/showthread.php?threadid=4000001")!)
    let post = try #require(scraped.posts.first)
    let relay = PostRelay(
      address: PostAddress(threadID: scraped.threadID, postID: post.id, index: post.index),
      threadTitle: scraped.threadTitle, author: post.author.name, date: nil, link: Self.link,
      threadLink: Self.threadLink,
      body: post.body, excerptLength: 400)
    return MatrixRenderer().render(.post(relay))[0]
  }
}
