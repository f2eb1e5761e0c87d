import AwfulBotTestKit
import ChatBridge
import AwfulScraping
import Foundation
import Testing

@testable import BotCore

/// A hostile post body goes through the real scraper and then the renderer: whatever the forum page contains, the
/// chat sees only allow-listed HTML.
@Suite("Rendering scraped hostile posts")
struct RenderScrapedPostTests {
  static func page(body: String) -> Data {
    Data(
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
  }

  @Test("script, iframe, event handlers, javascript: links and styles never reach the HTML")
  func hostileBody() throws {
    let body = """
      Hi @room <script>alert('x')</script><iframe src="https://evil.example/"></iframe>
      <a href="javascript:alert(1)" onclick="alert(2)">click</a>
      <img src="https://i.example/cat.png" onerror="alert(3)" style="width:9999px">
      <b onmouseover="alert(4)">bold</b> <span style="color:red" class="x">styled</span>
      <div class="bbc-block"><h4><a class="quote_link" href="/showthread.php?goto=post&postid=411637955#post411637955">AgentF posted:</a></h4><blockquote>quoted</blockquote></div>
      <span class="bbc-spoiler">secret</span>
      """
    let scraped = try PostsPageScraper().scrape(
      data: Self.page(body: body), url: URL(string: "https://forums.somethingawful.com/showthread.php?threadid=4000001")
    )
    let post = try #require(scraped.posts.first)
    let renderer = PostRenderer(baseURL: URL(string: "https://forums.somethingawful.com/")!)
    let capabilities = ChatCapabilities(
      html: true, edits: false, threads: false, maxMessageBytes: 65_000, notices: true)
    let message = renderer.render(
      post: post, threadID: scraped.threadID, threadTitle: scraped.threadTitle, capabilities: capabilities)
    let html = try #require(message.html)
    let lowered = html.lowercased()
    for forbidden in [
      "<script", "<iframe", "onclick", "onerror", "onmouseover", "style=", "class=", "javascript:", "<img", "<div",
      "<h4",
    ] {
      #expect(!lowered.contains(forbidden), "\(forbidden) in \(html)")
    }
    #expect(!html.contains("@room"))
    #expect(html.contains("<b>bold</b>"))
    #expect(html.contains("<blockquote>"))
    #expect(html.contains("AgentF posted:"))
    #expect(html.contains(#"<a href="https://i.example/cat.png">[image]</a>"#))
    #expect(!message.text.contains("secret") || html.contains("data-mx-spoiler"))
  }
}
