import AwfulScraping
import ForumModel
import Foundation
import Testing

/// The Quote button's form read for its text, and the forum's refusals of a post read as typed errors that keep the
/// forum's sentence (pages of our own making; the captured closed-thread page is in the conformance suite).
@Suite("Quote form and posting refusals")
struct ReplyRefusalAndQuoteTests {
  @Test func quoteFormMessageIsTheTextareaUnescaped() throws {
    let form = try ReplyFormScraper().scrape(data: OwnPages.data("reply-quote.html"))
    #expect(
      form.message
        == "[quote=\"Zoë Québec\" post=\"400000123\"]\n<b>not a tag</b> & “smart” 😀 &amp;\nsecond line\n[/quote]\n\n")
    #expect(form.fields.first { $0.name == "threadid" }?.value == "3600002")
  }

  /// The HTML rule: a line break right after `<textarea>` is not part of its text.
  @Test func aLineBreakRightAfterTheTextareaTagIsNotText() throws {
    let html = """
      <html><body><form name="vbform" action="newreply.php"><textarea name="message">
      [quote="A" post="1"]
      x
      [/quote]

      </textarea></form></body></html>
      """
    let form = try ReplyFormScraper().scrape(data: Data(html.utf8))
    #expect(form.message == "[quote=\"A\" post=\"1\"]\nx\n[/quote]\n\n")
  }

  @Test func floodCheckRefusalCarriesItsSecondsAndSentence() throws {
    let sentence = "This forum requires that you wait 30 seconds between posts. Please try again in 7 seconds."
    let error = try ErrorPageScraper().scrape(data: OwnPages.data("reply-flood.html"))
    #expect(error == .floodCheck(message: sentence, interval: 30, retryAfter: 7))
    #expect(error?.description.contains(sentence) == true)
    #expect(error?.postingRefusal == PostingRefusal(.floodCheck(interval: 30, retryAfter: 7), message: sentence))
    #expect(throws: ForumPageError.floodCheck(message: sentence, interval: 30, retryAfter: 7)) {
      try ReplyResultScraper().scrape(data: OwnPages.data("reply-flood.html"))
    }
  }

  /// Other wordings: the seconds left are what counts; without any number the page stays a plain refusal.
  @Test(arguments: [
    ("Sorry, you must wait 60 seconds between posts. Try again in 45 seconds.", 60, 45),
    ("Please wait 20 seconds between posts.", 20, 20),
  ])
  func floodCheckWordings(sentence: String, interval: Int, retryAfter: Int) throws {
    let error = ErrorPageScraper().scrape(try HTMLDocument(string: Self.standardError(sentence)))
    #expect(error == .floodCheck(message: sentence, interval: interval, retryAfter: retryAfter))
  }

  @Test func aFloodWordingWithoutSecondsStaysAStandardRefusal() throws {
    let sentence = "You are posting too fast between posts."
    let error = ErrorPageScraper().scrape(try HTMLDocument(string: Self.standardError(sentence)))
    guard case .standard(_, let message)? = error else {
      Issue.record("expected .standard, got \(String(describing: error))")
      return
    }
    #expect(message == sentence)
  }

  @Test func closedAndProbationRefusalsSayTheForumsSentence() throws {
    let closed = ForumPageError.threadClosed(title: "Sorry!", message: "! This thread is closed!")
    #expect(closed.postingRefusal == PostingRefusal(.threadClosed, message: "Sorry! This thread is closed!"))
    let probation = ForumPageError.probation(message: "You are on probation and cannot post.")
    #expect(probation.postingRefusal?.reason == .probation)
    #expect(probation.postingRefusal?.description == "The forum says: You are on probation and cannot post.")
    #expect(ForumPageError.standard(title: "t", message: "m").postingRefusal == nil)
  }

  static func standardError(_ sentence: String) -> String {
    """
    <html><body class="standarderror"><div class="standard"><h2>Special Message From Senor Lowtax</h2>
    <div class="inner"><b>\(sentence)</b></div></div></body></html>
    """
  }
}
