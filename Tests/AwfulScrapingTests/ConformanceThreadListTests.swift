import AwfulBotTestKit
import ForumModel
import Foundation
import Testing

@testable import AwfulScraping

/// EXPECTED.md, "ThreadListScrapingTests" and the computed thread-list values.
@Suite(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
struct ConformanceThreadListTests {
  let scraper = ThreadListScraper()

  func page(_ name: String, url: String, expecting: ThreadListScraper.Expectation = .any) throws -> ThreadListPage {
    try scraper.scrape(data: CapturedPages.data(name), url: CapturedPages.url(url), expecting: expecting)
  }

  func epoch(_ date: Date?) -> Int? { date.map { Int($0.timeIntervalSince1970) } }

  @Test func askTellForumList() throws {
    let list = try page("showthread-asktell.html", url: "forumdisplay.php?forumid=158")
    #expect(!list.isBookmarksPage)
    #expect(list.threads[0].title == "Stupid/Small Questions Megathread")
    #expect(list.threads[0].secondaryIcon?.imageName == "ama")
  }

  @Test func bookmarks() throws {
    let list = try page(
      "bookmarkthreads.html", url: "bookmarkthreads.php?action=view&perpage=40&pagenumber=1",
      expecting: .bookmarks)
    #expect(list.threads.count == 11)
    #expect(list.isBookmarksPage)
    #expect(list.page == PageNavigation(current: 1, total: 1))
    #expect(list.breadcrumbs.isEmpty)
    #expect(list.announcements.isEmpty)

    let names = (list.threads.compactMap(\.authorName) + list.threads.compactMap(\.lastPostAuthor)).filter {
      !$0.isEmpty
    }
    #expect(
      names.sorted() == [
        "Captain Vittles", "Choochacacko", "Dreylad", "Ferg", "Gazpacho", "I am in", "MC Fruit Stripe", "ManicJason",
        "Mug", "Ranma4703", "Salaminizer", "Scaevolus", "Scaevolus", "Sir Davey", "Suspicious Dish", "cougar cub",
        "csammis", "escape artist", "multigl", "pokeyman", "spankmeister", "sund",
      ])

    let wire = try #require(list.threads.first { $0.title.hasPrefix("The Wire") })
    #expect(wire.star == .orange)
    #expect(wire.icon?.imageName == "tava-vintage")
    #expect(wire.icon?.id == "373")
    #expect(wire.id == "3522091")
    #expect(!wire.isSticky)
    #expect(wire.title == "The Wire: The Rewatch... and all the pieces matter.")
    #expect(!wire.neverVisited)
    #expect(wire.unreadCount == nil)
    #expect(wire.authorName == "escape artist")
    #expect(wire.authorID == "84594")
    #expect(wire.replyCount == 434)
    #expect(wire.ratingAverage == nil)
    #expect(wire.ratingCount == nil)
    #expect(epoch(wire.lastPostDate) == 1_357_986_300)
    #expect(wire.lastPostAuthor == "MC Fruit Stripe")

    let faq = try #require(list.threads.first { $0.title.contains("FAQ") })
    #expect(faq.star == .orange)
    #expect(faq.icon?.imageName == "help")
    #expect(faq.id == "2836504")
    #expect(faq.isSticky)
    #expect(faq.title == "Cavern of Cobol FAQ (Read this first)")
    #expect(faq.unreadCount == nil)
    #expect(!faq.neverVisited)
    #expect(faq.authorName == "Scaevolus")
    #expect(faq.replyCount == 0)
    #expect(faq.ratingAverage == nil)
    #expect(epoch(faq.lastPostDate) == 1_209_399_240)
    #expect(faq.lastPostAuthor == "Scaevolus")

    let ferg = try #require(list.threads.first { $0.authorName == "Ferg" })
    #expect(ferg.star == .red)
    #expect(ferg.ratingCount == 159)
    #expect(ferg.ratingAverage == 4.79)
    #expect(ferg.ratingImageBasename == "5stars")

    #expect(
      list.threads.map(\.id) == [
        "3522091", "3391052", "2803713", "3481275", "3501654", "2841382", "3524781", "3400187", "3507451", "2779598",
        "2836504",
      ])
    #expect(list.threads.filter { $0.isSticky }.count == 3)
    #expect(list.threads.filter { $0.unreadCount != nil }.isEmpty)
    #expect(list.threads.filter { $0.neverVisited }.isEmpty)
    #expect(list.threads.filter { $0.star == .orange }.count == 9)
    #expect(list.threads.filter { $0.star == .red }.map(\.authorName) == ["Ferg"])
    #expect(list.threads.filter { $0.star == .yellow }.map(\.id) == ["3501654"])
  }

  @Test func debateAndDiscussion() throws {
    let list = try page(
      "forumdisplay.html", url: "forumdisplay.php?forumid=46&perpage=40&pagenumber=1",
      expecting: .forum)
    #expect(list.threads.count == 40)
    #expect(!list.isBookmarksPage)
    #expect(list.forumID == "46")
    #expect(list.breadcrumbs.map(\.name) == ["Discussion", "Debate & Discussion"])
    #expect(list.breadcrumbs.map(\.forumID) == ["51", "46"])
    #expect(list.page == PageNavigation(current: 1, total: 6))

    let names =
      (list.threads.compactMap(\.authorName) + list.threads.compactMap(\.lastPostAuthor)
      + list.announcements.compactMap(\.authorName)).filter { !$0.isEmpty }
    let expected = [
      ".Edward Penischin", "a bad enough dude", "Amarkov", "Bedlamdan", "BiggerBoat", "blackguy32", "CatCannons",
      "Chamale", "Charliegrs", "Chopstix", "Cleretic", "coolskillrex remix", "cougar cub", "d3c0y2", "Delta-Wye",
      "Deteriorata", "Doc Hawkins", "Dreylad", "evilweasel", "Fire", "Fire", "Fluo", "Fluo", "Fried Chicken",
      "front wing flexing", "FUCK SNEEP", "FViral", "GAS CURES KIKES", "hambeet", "Helsing", "Helsing", "Helsing",
      "Install Gentoo", "Install Gentoo", "jeffersonlives", "Job Truniht", "Joementum", "Joementum", "Joementum",
      "Joementum", "Landsknecht", "Lascivious Sloth", "lonelywurm", "Lowtax", "MaterialConceptual", "MiracleMouse",
      "Moist von Lipwig", "MonsterUnderYourBed", "Mr. Wynand", "NovemberMike", "Pesmerga", "Petey", "Pobama",
      "Pobama", "Rexroom", "richardfun", "rudatron", "Salaminizer", "shots shots shots", "showbiz_liz", "SilentD",
      "Sir Kodiak", "Solkanar512", "Stefu", "SubponticatePoster", "TerminalSaint", "The Entire Universe",
      "The Selling Wizard", "thefncrow", "TheOtherContraGuy", "tonelok", "UltimoDragonQuest", "UltimoDragonQuest",
      "Vilerat", "watt par", "Wolfsheim", "WYA", "Xachariah", "Xandu", "XyloJW", "Zikan",
    ]
    #expect(names.count == 81)
    #expect(names.sorted { $0.lowercased() < $1.lowercased() } == expected)

    #expect(list.filterIcons.count == 106)
    #expect(list.filterIcons.first?.id == "357")
    #expect(list.filterIcons.first?.imageName == "dd-offmeds")
    #expect(list.filterIcons.last?.id == "245")
    #expect(list.filterIcons.last?.imageName == "tcc-weed")

    let rules = try #require(list.threads.first { $0.title.contains("Improved Rules") })
    #expect(rules.star == nil)
    #expect(rules.icon?.imageName == "icon23-banme")
    #expect(rules.id == "3332697")
    #expect(rules.isSticky)
    #expect(rules.title == "The Improved Rules of Debate and Discussion - New Update")
    #expect(rules.unreadCount == nil)
    #expect(rules.authorName == "tonelok")
    #expect(rules.replyCount == 11)
    #expect(rules.ratingCount == nil)
    #expect(rules.ratingAverage == nil)
    #expect(epoch(rules.lastPostDate) == 1_330_220_520)
    #expect(rules.lastPostAuthor == "Xandu")

    let venezuela = try #require(list.threads.first { $0.title.hasPrefix("Venezuelan") })
    #expect(venezuela.star == nil)
    #expect(venezuela.icon?.imageName == "lf-marx")
    #expect(venezuela.id == "3510719")
    #expect(!venezuela.isSticky)
    #expect(venezuela.title == "Venezuelan elections")
    #expect(venezuela.unreadCount == nil)
    #expect(venezuela.neverVisited)
    #expect(venezuela.authorName == "a bad enough dude")
    #expect(venezuela.replyCount == 410)
    #expect(venezuela.ratingCount == nil)
    #expect(venezuela.ratingAverage == nil)
    #expect(epoch(venezuela.lastPostDate) == 1_357_104_060)
    #expect(venezuela.lastPostAuthor == "d3c0y2")

    #expect(list.announcements.count == 1)
    let announcement = try #require(list.announcements.first)
    #expect(announcement.title == "National Change Your Password Day!")
    #expect(announcement.authorName == "Lowtax")
    #expect(announcement.authorID == "27691")
    #expect(epoch(announcement.date) == 1_396_922_400)
    #expect(announcement.icon?.imageName == "icon-30-attnmod")

    #expect(list.threads.filter { $0.isSticky }.count == 1)
    #expect(list.threads.filter { $0.isClosed }.count == 1)
    #expect(list.threads.filter { $0.neverVisited }.count == 28)
    let unread = list.threads.filter { $0.unreadCount != nil }
    #expect(unread.count == 10)
    #expect(unread.first?.id == "3390388")
    #expect(unread.first?.title == "Middle East Wars : I/P Free Zone")
    #expect(unread.first?.replyCount == 35711)
    #expect(unread.first?.unreadCount == 2272)
  }

  @Test func subforumHierarchy() throws {
    let list = try page("forumdisplay2.html", url: "forumdisplay.php?forumid=191")
    #expect(list.breadcrumbs.map(\.name) == ["Discussion", "Games", "Let's Play!"])
    #expect(list.breadcrumbs.map(\.forumID) == ["51", "44", "191"])
    #expect(list.breadcrumbs.map(\.depth) == [0, 1, 2])
    #expect(list.announcements.isEmpty)
  }

  @Test func acceptsNewThreads() throws {
    #expect(try page("forumdisplay2.html", url: "forumdisplay.php?forumid=191").canPostNewThread)
    #expect(try !page("forumdisplay-goldmine.html", url: "forumdisplay.php?forumid=21").canPostNewThread)
  }

  @Test func somethingAwfulDiscussion() throws {
    let list = try page("forumdisplay-sad.html", url: "forumdisplay.php?forumid=1")
    #expect(list.threads.count == 18)
    #expect(list.page?.current == 1)
    let first = try #require(list.threads.first)
    #expect(first.title == "The Small Questions and Topics Thread")
    #expect(first.isSticky)
    #expect(first.authorName == "docbeard")
    let last = try #require(list.threads.last)
    #expect(last.title == "State of the Forums - July 2021 [From Dec 9, 2022]")
    #expect(last.authorName == "Jeffrey of YOSPOS")
  }

  @Test func forumPageScrapedAsBookmarksThrows() throws {
    #expect(throws: ScrapeError.self) {
      try page("forumdisplay.html", url: "bookmarkthreads.php", expecting: .bookmarks)
    }
  }

  @Test func threadPageScrapedAsForumThrows() throws {
    #expect(throws: ScrapeError.self) {
      try page("showthread.html", url: "forumdisplay.php?forumid=46", expecting: .forum)
    }
  }
}
