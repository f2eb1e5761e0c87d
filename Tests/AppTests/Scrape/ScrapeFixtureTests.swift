import AwfulBotApp
import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

/// `awfulbot scrape` on the captured forum pages: every kind is recognised by `auto` and printed with the documented
/// keys (docs/scrape.md), values as EXPECTED.md lists them, times in ISO-8601 UTC.
@Suite("awfulbot scrape on captured pages")
struct ScrapeFixtureTests {
  let runner = ScrapeCommandRunner()

  func run(
    _ name: String, kind: ScrapeKind = .auto, url: String? = nil, body: ScrapeBodyFormat = .text
  ) throws -> (ScrapeCommandResult, [String: Any]) {
    let result = runner.run(
      ScrapeOptions(
        path: CapturedPages.path(name), kind: kind, url: url.map(CapturedPages.url), bodyFormat: body))
    let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8))
    return (result, try #require(object as? [String: Any], "\(name): \(result.errorMessage)"))
  }

  /// The object has every key of `always` and no key outside `always` and `optional`: optional values the page does
  /// not have are left out, never written as null.
  func expectKeys(
    _ object: [String: Any], always: Set<String>, optional: Set<String>,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let keys = Set(object.keys)
    #expect(always.isSubset(of: keys), "missing \(always.subtracting(keys))", sourceLocation: sourceLocation)
    #expect(
      keys.isSubset(of: always.union(optional)), "undocumented \(keys.subtracting(always.union(optional)))",
      sourceLocation: sourceLocation)
    #expect(!object.values.contains { $0 is NSNull }, "a null value", sourceLocation: sourceLocation)
  }

  @Test(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
  func bookmarks() throws {
    let (result, page) = try run("bookmarkthreads.html")
    #expect(result.exitCode == 0)
    #expect(page["kind"] as? String == "threads")
    #expect(page["isBookmarksPage"] as? Bool == true)
    expectKeys(
      page,
      always: [
        "kind", "isBookmarksPage", "canPostNewThread", "breadcrumbs", "threads", "announcements", "filterIcons",
      ],
      optional: ["forumID", "page", "probation"])
    // Not captured on probation: no banner, no key.
    #expect(page["probation"] == nil)
    let threads = try #require(page["threads"] as? [[String: Any]])
    #expect(threads.count == 11)
    let wire = try #require(threads.first { $0["id"] as? String == "3522091" })
    #expect(wire["replyCount"] as? Int == 434)
    // The star is the forum's own category number: 0 is orange.
    #expect(wire["star"] as? Int == 0)
    #expect(wire["lastPostDate"] as? String == "2013-01-12T10:25:00Z")
    #expect(wire["lastPostAuthor"] as? String == "MC Fruit Stripe")
    #expect(wire["unreadCount"] == nil)
    #expect((wire["icon"] as? [String: Any])?["imageName"] as? String == "tava-vintage")
    expectKeys(
      wire, always: ["id", "title", "replyCount", "neverVisited", "isSticky", "isClosed"],
      optional: [
        "authorName", "authorID", "unreadCount", "lastPostDate", "lastPostAuthor", "star", "ratingCount",
        "ratingAverage", "ratingImageBasename", "icon", "secondaryIcon",
      ])
  }

  @Test(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
  func forumDisplayAnnouncementRow() throws {
    let (result, page) = try run("forumdisplay.html")
    #expect(result.exitCode == 0)
    let announcements = try #require(page["announcements"] as? [[String: Any]])
    #expect(announcements.first?["title"] as? String == "National Change Your Password Day!")
    #expect(announcements.first?["date"] as? String == "2014-04-08T02:00:00Z")
    #expect((page["breadcrumbs"] as? [[String: Any]])?.last?["forumID"] as? String == "46")
  }

  @Test(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
  func postsPage() throws {
    let (result, page) = try run(
      "showthread.html", url: "showthread.php?threadid=3507451&perpage=40&pagenumber=5")
    #expect(result.exitCode == 0)
    #expect(page["kind"] as? String == "posts")
    #expect(page["threadID"] as? String == "3507451")
    #expect(page["threadTitle"] as? String == "Canadian Politics Thread: Revenge of Trudeaumania: Brawl Me, Maybe")
    let posts = try #require(page["posts"] as? [[String: Any]])
    #expect(posts.count == 40)
    let first = posts[0]
    #expect(first["id"] as? String == "407741839")
    #expect(first["index"] as? Int == 161)
    #expect(first["date"] as? String == "2012-09-20T16:16:00Z")
    #expect((first["body"] as? String)?.contains("more I think about it") == true)
    #expect((posts[10]["body"] as? String)?.contains("Québec") == true)
    #expect((first["author"] as? [String: Any])?["regdate"] as? String == "2006-12-29T06:00:00Z")
    #expect((first["bodyHTML"] as? String)?.contains("more I think about it") == true)
    expectKeys(
      first,
      always: [
        "id", "index", "indexIsExplicit", "author", "hasBeenSeen", "isIgnored", "isEditable",
        "authorCanReceivePrivateMessages", "bodyHTML", "body",
      ],
      optional: ["date", "dateRaw", "editNote"])
  }

  @Test(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
  func postsPageTree() throws {
    let (result, page) = try run("showthread2.html", kind: .posts, body: .tree)
    #expect(result.exitCode == 0)
    let posts = try #require(page["posts"] as? [[String: Any]])
    let bodies = posts.compactMap { $0["body"] as? [[String: Any]] }
    #expect(bodies.count == posts.count)
    let quotes = bodies.flatMap { $0 }.filter { $0["type"] as? String == "quote" }
    #expect(!quotes.isEmpty)
    #expect(quotes.allSatisfy { $0["children"] is [Any] })
    #expect(quotes.contains { $0["author"] is String && $0["postID"] is String })
  }

  @Test(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
  func showPost() throws {
    let (result, page) = try run("showpost.html", url: "showthread.php?action=showpost&postid=428957756")
    #expect(result.exitCode == 0)
    #expect(page["kind"] as? String == "post")
    #expect(page["threadID"] as? String == "3510131")
    let post = try #require(page["post"] as? [String: Any])
    #expect((post["author"] as? [String: Any])?["name"] as? String == "The Dave")
    #expect((post["body"] as? String)?.contains("Which command?") == true)
  }

  @Test(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
  func announcement() throws {
    let (result, page) = try run("announcement.html", url: "announcement.php?forumid=1")
    #expect(result.exitCode == 0)
    #expect(page["kind"] as? String == "announcements")
    let announcements = try #require(page["announcements"] as? [[String: Any]])
    #expect(announcements.count == 1)
    #expect(announcements.first?["date"] as? String == "2010-09-05T05:00:00Z")
    #expect((announcements.first?["body"] as? String)?.contains("Forums Store is once again open!") == true)
  }

  @Test(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
  func index() throws {
    let (result, page) = try run("index.json")
    #expect(result.exitCode == 0)
    #expect(page["kind"] as? String == "index")
    let groups = try #require(page["groups"] as? [[String: Any]])
    #expect(groups.map { $0["id"] as? String } == ["48", "51", "152", "153", "49"])
    #expect((page["user"] as? [String: Any])?["name"] as? String == "pokeyman")
  }

  @Test(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
  func replyForm() throws {
    let (result, page) = try run("newreply.html")
    #expect(result.exitCode == 0)
    #expect(page["kind"] as? String == "reply-form")
    let fields = try #require(page["fields"] as? [[String: Any]])
    #expect(fields.contains { $0["name"] as? String == "threadid" && $0["value"] as? String == "3507451" })
    #expect((page["message"] as? String)?.contains("[quote=") == true)
  }

  @Test(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
  func privateMessageFolder() throws {
    let (result, page) = try run("private-list.html")
    #expect(result.exitCode == 0)
    #expect(page["kind"] as? String == "private-messages")
    expectKeys(
      page, always: ["kind", "folders", "isOnlyShowingLastFiftyMessages", "messages"],
      optional: ["current", "probation"])
    #expect((page["current"] as? [String: Any])?["name"] as? String == "Inbox")
    let messages = try #require(page["messages"] as? [[String: Any]])
    #expect(messages.map { $0["id"] as? String } == ["4601204", "4601162", "4600672", "4549686"])
    let first = messages[0]
    #expect(first["subject"] as? String == "Re: Awful app")
    #expect(first["sentDate"] as? String == "2012-11-09T03:30:00Z")
    #expect((first["status"] as? [String: Any])?["hasBeenSeen"] as? Bool == true)
    #expect((first["sender"] as? [String: Any])?["name"] as? String == "InFlames235")
    // The folder list links every sender to userid=0: no id to tell.
    #expect((first["sender"] as? [String: Any])?.keys.contains("id") == false)
    #expect((messages[1]["status"] as? [String: Any])?["wasRepliedTo"] as? Bool == true)
    expectKeys(
      first, always: ["id", "subject", "status"], optional: ["sender", "sentDate", "sentDateRaw", "icon", "iconAlt"])
  }

  @Test(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
  func privateMessage() throws {
    let (result, page) = try run("private-one.html")
    #expect(result.exitCode == 0)
    #expect(page["kind"] as? String == "private-message")
    #expect(page["id"] as? String == "4601162")
    #expect(page["subject"] as? String == "Awful app")
    #expect(page["sentDate"] as? String == "2012-11-09T02:56:00Z")
    #expect((page["author"] as? [String: Any])?["id"] as? String == "47395")
    #expect((page["body"] as? String)?.contains("awesome app") == true)
    #expect(page["probation"] == nil)
    #expect((page["status"] as? [String: Any])?.keys.sorted() == ["hasBeenSeen", "wasForwarded", "wasRepliedTo"])
    // The forms for a new message and a reply are reply forms.
    let (form, fields) = try run("private-reply.html")
    #expect(form.exitCode == 0)
    #expect(fields["kind"] as? String == "reply-form")
    #expect((fields["message"] as? String)?.contains("InFlames235 wrote on Nov  8, 2012 20:56:") == true)
  }

  @Test(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
  func errorPages() throws {
    let expected: [(String, String)] = [
      ("database-unavailable.html", "databaseUnavailable"),
      ("error-must-register.html", "loggedOut"),
      ("error-requires-plat.html", "standard"),
      ("banned.html", "banned"),
      ("newreply-closed.html", "threadClosed"),
    ]
    for (name, kind) in expected {
      let (result, page) = try run(name)
      #expect(result.exitCode == 2, "\(name)")
      #expect(page["kind"] as? String == "error", "\(name)")
      #expect((page["description"] as? String)?.isEmpty == false, "\(name)")
      let error = try #require(page["error"] as? [String: Any], "\(name)")
      #expect(Set(error.keys) == [kind], "\(name)")
    }
    // A forced scraper reports the error page the same way.
    let (forced, _) = try run("database-unavailable.html", kind: .posts)
    #expect(forced.exitCode == 2)
  }

  @Test(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
  func pagesOfOtherKindsAreUnrecognised() {
    let result = runner.run(ScrapeOptions(path: CapturedPages.path("profile.html")))
    #expect(result.exitCode == 1)
    #expect(!result.errorMessage.isEmpty)
  }
}
