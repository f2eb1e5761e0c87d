import AwfulScraping
import Foundation
import Testing

@Suite("Profile scraping")
struct ProfileScrapingTests {
  let scraper = ProfileScraper()

  @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
  func pokeyman() throws {
    let profile = try scraper.scrape(ExtraFixture.document("profile.html"))
    #expect(profile.author.id == "106125")
    #expect(profile.author.name == "pokeyman")
    let title = try #require(profile.author.customTitleHTML)
    #expect(title.contains("play?"))
    #expect(title.contains("title-pokeyman"))
    #expect(profile.canReceivePrivateMessages)
    #expect(profile.icqName == "1234")
    #expect(profile.aimName == nil)
    #expect(profile.yahooName == nil)
    #expect(profile.location == nil)
    #expect(profile.interests == nil)
    #expect(profile.occupation == nil)
    #expect(profile.gender == "porpoise")
    #expect(profile.postCount == 1954)
    #expect(profile.postRate == "0.88")
    // Computed from the page: "Dec 28, 2012 00:43" and "Nov 26, 2006" in America/Chicago.
    #expect(profile.lastPostDateRaw == "Dec 28, 2012 00:43")
    #expect(profile.lastPostDate == ExtraFixture.date(1_356_676_980))
    #expect(profile.author.regdate == ExtraFixture.date(1_164_520_800))
    #expect(profile.aboutHTML?.contains("has not provided any additional info") == true)
    #expect(profile.homepage == nil)
    #expect(profile.pictureURL == nil)
  }

  @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
  func locationAfterUnclosedLastPost() throws {
    let profile = try scraper.scrape(ExtraFixture.document("profile2.html"))
    #expect(profile.location == "San Francisco")
    let title = try #require(profile.author.customTitleHTML)
    for fragment in ["safs/titles", "dd/68", "01/df"] { #expect(title.contains(fragment)) }
    // The last-post value stops at its own text even though its dd is never closed.
    #expect(profile.lastPostDate == ExtraFixture.date(1_357_022_280))
    #expect(profile.postCount == 221)
  }

  @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
  func customTitles() throws {
    let expected: [(String, [String])] = [
      ("profile3.html", ["<i>", "I'm getting at is", "safs/titles"]),
      ("profile4.html", ["<br"]),
      ("profile5.html", ["newbie.gif"]),
      ("profile6.html", ["i am winner", "tccburnouts.png"]),
    ]
    for (page, fragments) in expected {
      let title = try #require(try scraper.scrape(ExtraFixture.document(page)).author.customTitleHTML, "\(page)")
      for fragment in fragments { #expect(title.contains(fragment), "\(page) title lacks \(fragment)") }
    }
  }

  @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
  func interestsLocationAndAIM() throws {
    let five = try scraper.scrape(ExtraFixture.document("profile5.html"))
    #expect(five.interests == "Developing a Lifelong Habit of Flossing with Dental Floss")
    #expect(five.location == nil)
    let six = try scraper.scrape(ExtraFixture.document("profile6.html"))
    #expect(six.location == "SAGF-4475")
    #expect(six.aimName == "e13v3n11")
    #expect(six.icqName == nil)
  }

  @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
  func errorPagesAreErrors() throws {
    #expect(throws: ForumPageError.self) { try scraper.scrape(ExtraFixture.document("database-unavailable.html")) }
    #expect(throws: ScrapeError.self) { try scraper.scrape(ExtraFixture.document("banlist.html")) }
  }

  @Test func ownPageWithEveryField() throws {
    let html = """
      <html><body class="getinfo"><table class="standard"><tr><td id="thread"><dl class="userinfo">
      <dt class="author role-mod platinum">Some Mod</dt><dd class="registered">Sep  9, 2003</dd>
      <dd class="title"><br class="pb">Title<br class="pb"></dd></dl></td>
      <td class="info"><p>There have been <b>10</b> posts. <i>Some Mod</i> claims to be a female.</p>
      <p>I like <b>trains</b>.</p>
      <dl class="contacts"><dt class="pm">Message</dt><dd>&nbsp;</dd>
      <dt class="icq">ICQ</dt><dd><span class="unset">not set</span></dd><dt class="aim">AIM</dt><dd>modaim</dd>
      <dt class="yahoo">Yahoo!</dt><dd>y!name</dd>
      <dt class="homepage">Home Page</dt><dd><a href="https://example.com/me">https://example.com/me</a></dd></dl>
      <div class="userpic"><img src="https://example.com/pic.png"></div>
      <dl class="additional"><dt>Member Since</dt><dd>Sep  9, 2003</dd><dt>Post Count</dt><dd>12,345</dd>
      <dt>Post Rate</dt><dd>3.5 per day</dd><dt>Last Post</dt><dd>Jan 18, 2013  7:28 PM</dd>
      <dt>Occupation</dt><dd>Moderating</dd></dl></td></tr></table>
      <form action="/member2.php"><input type="hidden" name="userid" value="777"></form></body></html>
      """
    let profile = try scraper.scrape(HTMLDocument(string: html))
    #expect(profile.author.id == "777")
    #expect(profile.author.isModerator)
    #expect(profile.author.additionalClasses == ["platinum"])
    #expect(profile.author.customTitleHTML == "Title")
    #expect(profile.gender == "female")
    #expect(profile.aboutHTML == "I like <b>trains</b>.")
    #expect(!profile.canReceivePrivateMessages)
    #expect(profile.icqName == nil)
    #expect(profile.aimName == "modaim")
    #expect(profile.yahooName == "y!name")
    #expect(profile.homepage == "https://example.com/me")
    #expect(profile.pictureURL == "https://example.com/pic.png")
    #expect(profile.postCount == 12_345)
    #expect(profile.postRate == "3.5")
    #expect(profile.occupation == "Moderating")
    // 7:28 PM CST on Jan 18, 2013 is 01:28 UTC the next day.
    #expect(profile.lastPostDate == ExtraFixture.date(1_358_558_880))
  }

  @Test func pageWithoutProfileIsAScrapeError() throws {
    #expect(throws: ScrapeError.self) {
      try scraper.scrape(HTMLDocument(string: "<html><body><p>nothing</p></body></html>"))
    }
  }
}
