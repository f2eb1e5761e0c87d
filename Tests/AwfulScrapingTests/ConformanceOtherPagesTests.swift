import AwfulBotTestKit
import ForumModel
import Foundation
import Testing

@testable import AwfulScraping

/// EXPECTED.md: "PostScrapingTests" (showpost), "AnnouncementScrapingTests", the announcement and index persistence
/// values, and the reply form (docs/forum-protocol.md#replying).
@Suite(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
struct ConformanceOtherPagesTests {
  func epoch(_ date: Date?) -> Int? { date.map { Int($0.timeIntervalSince1970) } }

  @Test func ignoredPostShownAlone() throws {
    let page = try ShowPostScraper().scrape(
      data: CapturedPages.data("showpost.html"),
      url: CapturedPages.url("showthread.php?action=showpost&postid=428957756"))
    #expect(page.post.author.name == "The Dave")
    #expect(plainText(page.post.body).contains("Which command?"))
    #expect(page.post.bodyHTML.contains("Which command?"))
    #expect(page.threadID == "3510131")
    #expect(page.threadTitle == "Awful iPhone/iPad app - error code -1002")
    #expect(page.post.id == "428957756")
    #expect(page.post.author.id == "41741")
    #expect(page.post.author.customTitleHTML?.contains("title-the_dave-2.gif") == true)
    #expect(epoch(page.post.author.regdate) == epoch(ForumDates().date(from: "Sep 9, 2003")))
    #expect(!page.post.indexIsExplicit)
    #expect(page.post.dateRaw == "Apr 29, 2014 17:02")
  }

  @Test func announcementPage() throws {
    let announcements = try AnnouncementsScraper().scrape(
      data: CapturedPages.data("announcement.html"), url: CapturedPages.url("announcement.php?forumid=1"))
    #expect(announcements.count == 1)
    let announcement = try #require(announcements.first)
    #expect(announcement.author.name == "SA Support Robot")
    #expect(announcement.author.id == nil)
    #expect(announcement.bodyHTML.contains("Forums Store is once again open!"))
    #expect(plainText(announcement.body).contains("Forums Store is once again open!"))
    #expect(announcement.bodyHTML.contains("Thanks for shopping in advance!"))
    #expect(epoch(announcement.date) == 1_283_662_800)
    #expect(!announcement.dateHasTime, "the page gives the day alone: “Sep 05, 2010”")
    #expect(epoch(announcement.author.regdate) == 1_177_045_200)
    #expect(announcement.author.customTitleHTML?.contains("sa-support-robot.gif") == true)
    #expect(announcement.title == nil)
  }

  @Test func announcementTitlesComeFromTheThreadList() throws {
    let list = try ThreadListScraper().scrape(data: CapturedPages.data("forumdisplay.html"))
    let announcements = try AnnouncementsScraper().scrape(
      data: CapturedPages.data("announcement.html"), listed: list.announcements)
    #expect(announcements.first?.title == "National Change Your Password Day!")
    #expect(try ThreadListScraper().scrape(data: CapturedPages.data("forumdisplay2.html")).announcements.isEmpty)
  }

  @Test func forumIndex() throws {
    let index = try ForumIndexScraper().scrape(data: CapturedPages.data("index.json"))
    #expect(index.groups.map(\.id) == ["48", "51", "152", "153", "49"])
    #expect(index.groups.allSatisfy { !$0.hasThreads })
    #expect(index.allForums.count == 76)

    let main = try #require(index.groups.first { $0.id == "48" })
    #expect(main.title == "Main")
    let mainForums = index.allForums.filter { $0.groupID == "48" }.map(\.forum.title).sorted()
    #expect(
      mainForums == [
        "BYOB: An Island of Chill in a Sea of Madness", "Cool Crew Chat Central", "E/N: Everyone's/Neurotic",
        "General Bullshit", "Post My Favorites", "Post Your Favorite (or Request): Stop! Collaborate and LISTen",
        "SA's Front Page Discussion", "The Cholesterol Clubhouse",
      ])

    let en = try #require(index.allForums.first { $0.forum.id == "214" })
    #expect(en.forum.title == "E/N: Everyone's/Neurotic")
    #expect(en.groupID == "48")
    #expect(en.parentIDs == ["273"])
    #expect(index.allForums.first { $0.forum.id == "273" }?.forum.title == "General Bullshit")

    let wow = try #require(index.allForums.first { $0.forum.id == "146" })
    #expect(wow.forum.title == "WoW: Goon Squad")
    #expect(wow.parentIDs == ["259", "44"])

    #expect(index.user == ForumUser(id: "106125", name: "pokeyman", biography: "2"))
  }

  @Test func forumIndexIdsAsStringsOrNumbers() throws {
    let json = #"""
      {"user": {"userid": "7", "username": "A &amp; B", "biography": "hi"},
       "forums": [{"id": "48", "title": "Main", "has_threads": false, "icon": "", "sub_forums": [
         {"id": 1, "title": "Q&amp;A &#039;s", "has_threads": true, "icon": "x.gif",
          "moderators": [{"userid": 2, "username": "mod"}], "sub_forums": []}]}]}
      """#
    let index = try ForumIndexScraper().scrape(data: Data(json.utf8))
    #expect(index.groups.first?.id == "48")
    #expect(index.groups.first?.icon == nil)
    let forum = try #require(index.groups.first?.subforums.first)
    #expect(forum.id == "1")
    #expect(forum.title == "Q&A 's")
    #expect(forum.icon == "x.gif")
    #expect(forum.moderators == ["mod"])
    #expect(index.user == ForumUser(id: "7", name: "A & B", biography: "hi"))
  }

  @Test func forumIndexRejectsOtherJSON() {
    #expect(throws: ScrapeError.self) { try ForumIndexScraper().scrape(data: Data(#"{"stats": {}}"#.utf8)) }
    #expect(throws: ScrapeError.self) { try ForumIndexScraper().scrape(data: Data("not json".utf8)) }
  }

  @Test func replyForm() throws {
    let form = try ReplyFormScraper().scrape(data: CapturedPages.data("newreply.html"))
    #expect(form.action == "newreply.php")
    let pairs = form.fields.map { "\($0.name)=\($0.value)" }
    #expect(pairs.contains("action=postreply"))
    #expect(pairs.contains("threadid=3507451"))
    #expect(pairs.contains("formkey=0253d85a945b60daa0165f718df82b8a"))
    #expect(pairs.contains("form_cookie=80c74b48f557"))
    #expect(pairs.contains("parseurl=yes"))
    #expect(pairs.contains("bookmark=yes"))
    #expect(pairs.contains("MAX_FILE_SIZE=2097152"))
    #expect(!pairs.contains { $0.hasPrefix("disablesmilies") })
    #expect(!pairs.contains { $0.hasPrefix("signature") })
    #expect(!pairs.contains { $0.hasPrefix("attachment") })
    #expect(
      form.submitButtons == [
        .init(name: "submit", value: "Submit Reply"), .init(name: "preview", value: "Preview Reply"),
      ])
    #expect(form.message.hasPrefix("[quote=\"Kafka Esq.\" post=\"408374035\"]\n"))
    #expect(form.message.hasSuffix("[/quote]\n\n"))
  }

  @Test func replyFormIsNotTheFirstForm() throws {
    let form = try ReplyFormScraper().scrape(data: CapturedPages.data("newreply-amazon-form.html"))
    #expect(form.action.contains("newreply.php"))
    #expect(!form.fields.contains { $0.name == "keyword" || $0.name == "tag" })
    #expect(form.fields.contains { $0.name == "formkey" })
  }

  @Test func replyFormMissing() throws {
    #expect(throws: ScrapeError.self) { try ReplyFormScraper().scrape(data: CapturedPages.data("showthread.html")) }
    #expect(throws: ForumPageError.self) {
      try ReplyFormScraper().scrape(data: CapturedPages.data("newreply-closed.html"))
    }
  }

  @Test(arguments: [
    ("bookmarkthreads.html", "bookmarkthreads.php?action=view", PageKind.threadList),
    ("forumdisplay.html", "forumdisplay.php?forumid=46", .threadList),
    ("showthread-asktell.html", "forumdisplay.php?forumid=158", .threadList),
    ("showthread.html", "showthread.php?threadid=3507451", .posts),
    ("showthread2.html", "showthread.php?threadid=3526065", .posts),
    ("showthread-fyad.html", "showthread.php?threadid=3589200", .posts),
    ("showpost.html", "showthread.php?action=showpost&postid=428957756", .showPost),
    ("announcement.html", "announcement.php?forumid=1", .announcements),
    ("index.json", "index.php?json=1", .forumIndex),
    ("banned.html", "index.php", .error),
    ("database-unavailable.html", "index.php", .error),
    ("error-must-register.html", "index.php", .error),
    ("newreply-closed.html", "newreply.php", .error),
    ("newreply.html", "newreply.php?action=newreply&threadid=3507451", .replyForm),
    ("newreply-amazon-form.html", "newreply.php", .replyForm),
  ])
  func pageKind(name: String, url: String, kind: PageKind) throws {
    #expect(PageKind.detect(data: try CapturedPages.data(name), url: CapturedPages.url(url)) == kind)
  }

  @Test func pageKindWithoutURL() throws {
    #expect(PageKind.detect(data: try CapturedPages.data("showpost.html")) == .showPost)
    #expect(PageKind.detect(data: try CapturedPages.data("announcement.html")) == .announcements)
    #expect(PageKind.detect(data: try CapturedPages.data("showthread.html")) == .posts)
    #expect(PageKind.detect(data: try CapturedPages.data("profile.html")) == nil)
  }
}
