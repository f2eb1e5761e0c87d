import AwfulScraping
import Foundation
import Testing

@Suite("Ignore list scraping")
struct IgnoreListScrapingTests {
  let scraper = IgnoreListScraper()

  @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
  func emptyList() throws {
    let form = try scraper.scrapeForm(ExtraFixture.document("ignore-empty.html"))
    #expect(form.textBoxes.map(\.name) == ["listbits[]", "listbits[]"])
    #expect(form.textBoxes.map(\.value) == ["", ""])
    #expect(form.usernames.isEmpty)
    #expect(form.action.contains("member2.php"))
    #expect(form.fields.contains(IgnoreListForm.Field(name: "action", value: "updatelist")))
    #expect(form.fields.contains(IgnoreListForm.Field(name: "userlist", value: "ignore")))
    #expect(form.fields.contains(IgnoreListForm.Field(name: "formkey", value: "xxxxxxx")))
    #expect(form.submitButton == IgnoreListForm.Field(name: "submit", value: "Update list"))
  }

  @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
  func multiple() throws {
    let form = try scraper.scrapeForm(ExtraFixture.document("ignore-multiple.html"))
    #expect(form.textBoxes.count == 4)
    #expect(form.usernames == ["Diabolik900", "carry on then"])
  }

  @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
  func one() throws {
    let form = try scraper.scrapeForm(ExtraFixture.document("ignore-one.html"))
    #expect(form.textBoxes.count == 3)
    #expect(form.usernames == ["carry on then"])
  }

  @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
  func staffIsRejected() throws {
    let result = scraper.scrapeChangeResult(try ExtraFixture.document("ignore-staff.html"))
    guard case .rejected(let username, let message) = result else {
      Issue.record("expected a rejection, got \(result)")
      return
    }
    #expect(username == "Lowtax")
    #expect(message.contains("is a moderator/admin"))
  }

  @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
  func success() throws {
    #expect(scraper.scrapeChangeResult(try ExtraFixture.document("ignore-success.html")) == .success)
    #expect(scraper.scrapeChangeResult(try ExtraFixture.document("profile.html")) == .unrecognized)
  }

  @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
  func otherPagesHaveNoIgnoreForm() throws {
    #expect(throws: ScrapeError.self) { try scraper.scrapeForm(ExtraFixture.document("profile.html")) }
  }
}

@Suite("Ignore list form")
struct IgnoreListFormTests {
  func entries(_ form: IgnoreListForm) -> [String] {
    form.submission.filter { $0.name == IgnoreListForm.entryFieldName }.map(\.value)
  }

  @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
  func emptyPlusOne() throws {
    let form = try IgnoreListScraper().scrapeForm(ExtraFixture.document("ignore-empty.html"))
    #expect(entries(form.settingUsernames(["v. annoying"])) == ["v. annoying"])
  }

  @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
  func emptyPlusTwo() throws {
    let form = try IgnoreListScraper().scrapeForm(ExtraFixture.document("ignore-empty.html"))
    #expect(entries(form.settingUsernames(["kinda annoying", "real annoying"])).count == 2)
  }

  @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
  func oneplusMore() throws {
    let form = try IgnoreListScraper().scrapeForm(ExtraFixture.document("ignore-one.html"))
    #expect(form.usernames == ["carry on then"])
    #expect(entries(form.settingUsernames(form.usernames + ["persistent whiner"])).count == 2)
    let three = form.settingUsernames(form.usernames + ["a", "b"])
    #expect(entries(three) == ["carry on then", "a", "b"])
  }

  @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
  func clearingTheList() throws {
    let form = try IgnoreListScraper().scrapeForm(ExtraFixture.document("ignore-multiple.html"))
    #expect(form.usernames.sorted() == ["Diabolik900", "carry on then"])
    let cleared = form.settingUsernames([])
    #expect(entries(cleared).isEmpty)
    // The hidden fields and the submit button are still sent, in order.
    #expect(
      cleared.submission.map(\.name) == ["action", "userlist", "formkey", "submit"])
  }

  @Test func entriesReplaceTheTextBoxesInPlace() {
    let form = IgnoreListForm(
      action: "member2.php",
      fields: [
        .init(name: "action", value: "updatelist"), .init(name: "listbits[]", value: "old"),
        .init(name: "listbits[]", value: ""), .init(name: "after", value: "x"),
      ],
      submitButton: .init(name: "submit", value: "Update list"))
    let updated = form.settingUsernames(["new one", "  ", "two "])
    #expect(
      updated.submission == [
        .init(name: "action", value: "updatelist"), .init(name: "listbits[]", value: "new one"),
        .init(name: "listbits[]", value: "two"), .init(name: "after", value: "x"),
        .init(name: "submit", value: "Update list"),
      ])
    #expect(updated.usernames == ["new one", "two"])
  }
}
