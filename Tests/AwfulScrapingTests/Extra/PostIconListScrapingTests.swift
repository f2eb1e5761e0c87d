import AwfulScraping
import Foundation
import Testing

@Suite("Post icon list scraping")
struct PostIconListScrapingTests {
  let scraper = PostIconListScraper()

  @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
  func newThread() throws {
    let icons = try scraper.scrape(ExtraFixture.document("newthread.html"))
    #expect(icons.primaryIcons.count == 51)
    #expect(icons.primaryFieldName == "iconid")
    #expect(icons.secondaryIcons.isEmpty)
    #expect(icons.secondaryFieldName == nil)
    // Every primary icon has the radio's value as id and an image.
    #expect(icons.primaryIcons.allSatisfy { $0.id?.isEmpty == false && !$0.imageName.isEmpty })
    #expect(icons.primaryIcons.first?.id == "420")
  }

  @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
  func askTell() throws {
    let icons = try scraper.scrape(ExtraFixture.document("newthread-at.html"))
    #expect(icons.primaryIcons.count == 55)
    #expect(icons.secondaryFieldName == "tma_ama")
    #expect(icons.secondaryIcons.map(\.imageName).sorted() == ["ama", "tma"])
    #expect(icons.secondaryIcons.map(\.id) == ["0", "1"])
  }

  @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
  func samart() throws {
    let icons = try scraper.scrape(ExtraFixture.document("newthread-samart.html"))
    #expect(icons.primaryIcons.count == 69)
    #expect(icons.secondaryFieldName == "samart_tag")
    #expect(
      icons.secondaryIcons.map(\.imageName).sorted() == [
        "icon-37-selling", "icon-38-buying", "icon-46-trading", "icon-52-trading",
      ])
  }

  @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
  func privateMessageForm() throws {
    let icons = try scraper.scrape(ExtraFixture.document("private-new.html"))
    #expect(icons.primaryFieldName == "iconid")
    #expect(!icons.primaryIcons.isEmpty)
  }

  @Test func radiosWithoutImagesAreNoSecondaryIcons() throws {
    let html = """
      <html><body><div class="posticon"><input type="radio" name="iconid" value="7"><img src="/i/seven.gif"></div>
      <input type="radio" name="other" value="1"><img src="/i/a.gif"><input type="radio" name="other" value="2">text
      </body></html>
      """
    let icons = try scraper.scrape(HTMLDocument(string: html))
    #expect(icons.primaryIcons == [ThreadTag(id: "7", imageURL: "/i/seven.gif", imageName: "seven")])
    #expect(icons.secondaryIcons.isEmpty)
    #expect(icons.secondaryFieldName == nil)
  }

  @Test func pageWithoutIconsIsAScrapeError() throws {
    #expect(throws: ScrapeError.self) { try scraper.scrape(HTMLDocument(string: "<html><body></body></html>")) }
  }
}
