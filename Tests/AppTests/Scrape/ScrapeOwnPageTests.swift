import AwfulBotApp
import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

/// `awfulbot scrape` on pages of the tests' own making: exit codes, JSON shape, ISO dates, tree bodies.
@Suite("awfulbot scrape on own pages")
struct ScrapeOwnPageTests {
  static let threadPage = """
    <!DOCTYPE html><html><head><meta charset="utf-8"><title>Test thread - The Something Awful Forums</title></head>
    <body id="something_awful" class="showthread" data-forum="46" data-thread="1234">
    <div class="breadcrumbs"><a href="forumdisplay.php?forumid=51">Discussion</a> &gt;
    <a href="forumdisplay.php?forumid=46">Debate &amp; Discussion</a> &gt;
    <a href="showthread.php?threadid=1234">Test thread</a></div>
    <div id="thread">
    <table class="post" id="post555" data-idx="41"><tr class="altcolor1" id="pti1">
    <td class="userinfo userid-77"><dl class="userinfo"><dt class="author">Poster Person</dt>
    <dd class="registered">Dec 29, 2006</dd></dl></td>
    <td class="postbody"><!-- BeginContentMarker -->
    <div class="bbc-block"><h4><a class="quote_link" href="/showthread.php?goto=post&amp;postid=554#post554">Someone posted:</a></h4>
    <blockquote>quoted words</blockquote></div>
    Hello <b>world</b>.<br>Second line.
    <!-- EndContentMarker --></td></tr>
    <tr class="altcolor1"><td class="postdate"><a href="#post555">#</a> Sep 20, 2012 11:16</td>
    <td class="postlinks"><ul class="profilelinks"><li><a href="member.php?action=getinfo&amp;userid=77">Profile</a></li></ul></td></tr>
    </table></div></body></html>
    """

  let runner = ScrapeCommandRunner()

  func json(_ result: ScrapeCommandResult) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8))
    return try #require(object as? [String: Any])
  }

  @Test func postsPageAsTextWithISODates() throws {
    let pages = try ScratchPages()
    let path = try pages.write("thread.html", Self.threadPage)
    let result = runner.run(
      ScrapeOptions(
        path: path,
        url: URL(string: "https://forums.somethingawful.com/showthread.php?threadid=1234&perpage=40&pagenumber=2")))
    #expect(result.exitCode == 0)
    #expect(result.errorMessage.isEmpty)
    let page = try json(result)
    #expect(page["kind"] as? String == "posts")
    #expect(page["threadID"] as? String == "1234")
    #expect(page["forumID"] as? String == "46")
    // A value the page does not have is left out, not written as null.
    #expect(!page.keys.contains("firstUnreadIndexOnPage"))
    #expect(!page.keys.contains("probation"))
    let posts = try #require(page["posts"] as? [[String: Any]])
    let post = try #require(posts.first)
    #expect(post["id"] as? String == "555")
    #expect(post["index"] as? Int == 41)
    // Sep 20, 2012 11:16 in Chicago (CDT, UTC-5).
    #expect(post["date"] as? String == "2012-09-20T16:16:00Z")
    let author = try #require(post["author"] as? [String: Any])
    #expect(author["id"] as? String == "77")
    #expect(author["regdate"] as? String == "2006-12-29T06:00:00Z")
    let body = try #require(post["body"] as? String)
    #expect((post["bodyHTML"] as? String)?.contains("<b>world</b>") == true)
    #expect(body.contains("Someone posted:"))
    #expect(body.contains("> quoted words"))
    #expect(body.contains("Hello world."))
    // Keys are sorted, so the output is stable line by line.
    let keyLines = result.output.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { String($0) }
    #expect(keyLines == keyLines.sorted())
  }

  @Test func treeBodies() throws {
    let pages = try ScratchPages()
    let path = try pages.write("thread.html", Self.threadPage)
    let result = runner.run(ScrapeOptions(path: path, kind: .posts, bodyFormat: .tree))
    #expect(result.exitCode == 0)
    let posts = try #require(try json(result)["posts"] as? [[String: Any]])
    let body = try #require(posts.first?["body"] as? [[String: Any]])
    let quote = try #require(body.first { $0["type"] as? String == "quote" })
    #expect(quote["author"] as? String == "Someone")
    #expect(quote["postID"] as? String == "554")
    #expect(quote["children"] is [[String: Any]])
    #expect(body.contains { $0["type"] as? String == "bold" })
    #expect(body.contains { $0["type"] as? String == "lineBreak" })
  }

  @Test func timeZoneOption() throws {
    let pages = try ScratchPages()
    let path = try pages.write("thread.html", Self.threadPage)
    let result = runner.run(ScrapeOptions(path: path, timeZone: TimeZone(identifier: "UTC")!))
    let posts = try #require(try json(result)["posts"] as? [[String: Any]])
    #expect(posts.first?["date"] as? String == "2012-09-20T11:16:00Z")
  }

  @Test func forumErrorPageExitsTwo() throws {
    let pages = try ScratchPages()
    let path = try pages.write(
      "error.html",
      """
      <html><body class="database_error"><div id="msg"><h1>Database Unavailable!</h1>
      The forums database is currently not available. Please try again later.</div></body></html>
      """)
    let result = runner.run(ScrapeOptions(path: path))
    #expect(result.exitCode == 2)
    let report = try json(result)
    #expect(report["kind"] as? String == "error")
    #expect((report["description"] as? String)?.hasPrefix("The forum database is unavailable") == true)
    // The typed error in its own coding: the case name holds the case's fields.
    let error = try #require(report["error"] as? [String: Any])
    #expect(Set(error.keys) == ["databaseUnavailable"])
    let fields = try #require(error["databaseUnavailable"] as? [String: Any])
    #expect(fields["title"] as? String == "Database Unavailable!")
    #expect((fields["message"] as? String)?.contains("currently not available") == true)
  }

  @Test func unreadableFileExitsOne() {
    let result = runner.run(ScrapeOptions(path: "/nonexistent/awfulbot/page.html"))
    #expect(result.exitCode == 1)
    #expect(result.output.isEmpty)
    #expect(result.errorMessage.contains("cannot read /nonexistent/awfulbot/page.html"))
  }

  @Test func emptyFileExitsOne() throws {
    let pages = try ScratchPages()
    let result = runner.run(ScrapeOptions(path: try pages.write("empty.html", "")))
    #expect(result.exitCode == 1)
    #expect(result.errorMessage.contains("empty"))
  }

  @Test func unrecognisedPageExitsOne() throws {
    let pages = try ScratchPages()
    let path = try pages.write("other.html", "<html><body><p>Just a page.</p></body></html>")
    let result = runner.run(ScrapeOptions(path: path))
    #expect(result.exitCode == 1)
    #expect(result.output.isEmpty)
    #expect(result.errorMessage.contains("--kind"))
  }

  @Test func wrongForcedKindExitsOne() throws {
    let pages = try ScratchPages()
    let path = try pages.write("thread.html", Self.threadPage)
    let asThreads = runner.run(ScrapeOptions(path: path, kind: .threads))
    #expect(asThreads.exitCode == 1)
    #expect(!asThreads.errorMessage.isEmpty)
    let asError = runner.run(ScrapeOptions(path: path, kind: .error))
    #expect(asError.exitCode == 1)
    #expect(asError.errorMessage.contains("not a forum error page"))
  }

  /// A page with the probation banner is read as usual (exit 0), the probation reported beside the posts.
  @Test func probationIsReportedBesideThePosts() throws {
    let banner = """
      <div id="probation_warn"><h4>TAKE A BREAK</h4>
      You have been put on probation until Jun 25, 2025 13:50. You cannot post while on probation.</div>
      """
    let pages = try ScratchPages()
    let path = try pages.write(
      "probation.html",
      Self.threadPage.replacingOccurrences(of: "<div id=\"thread\">", with: banner + "<div id=\"thread\">"))
    let result = runner.run(ScrapeOptions(path: path))
    #expect(result.exitCode == 0)
    let page = try json(result)
    #expect(page["kind"] as? String == "posts")
    #expect((page["posts"] as? [[String: Any]])?.count == 1)
    let probation = try #require(page["probation"] as? [String: Any])
    #expect(Set(probation.keys) == ["message", "until", "untilRaw"])
    // 13:50 in Chicago (CDT, UTC-5).
    #expect(probation["until"] as? String == "2025-06-25T18:50:00Z")
    #expect(probation["untilRaw"] as? String == "Jun 25, 2025 13:50")
    #expect((probation["message"] as? String)?.hasPrefix("TAKE A BREAK You have been put on probation") == true)

    let withoutBanner = try json(runner.run(ScrapeOptions(path: try pages.write("thread.html", Self.threadPage))))
    #expect(withoutBanner["probation"] == nil)
  }

  @Test func kindsHaveTheirCommandLineNames() {
    #expect(
      ScrapeKind.allCases.map(\.rawValue) == [
        "auto", "threads", "posts", "announcements", "post", "index", "error", "reply-form", "private-messages",
        "private-message", "banlist",
      ])
    #expect(ScrapeBodyFormat(rawValue: "tree") == .tree)
  }
}
