import AwfulBotTestKit
import AwfulScraping
import ForumModel
import Foundation
import Testing

@Suite("Private message scraping")
struct PrivateMessageScrapingTests {
  @Test(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
  func folder() throws {
    let folder = try PrivateMessageFolderScraper().scrape(Self.document("private-list.html"))
    #expect(folder.folders.map(\.id) == ["0", "-1"])
    #expect(folder.folders.map(\.name) == ["Inbox", "Sent Items"])
    #expect(folder.current == PrivateMessageFolder.Entry(id: "0", name: "Inbox"))
    #expect(!folder.isOnlyShowingLastFiftyMessages)
    try #require(folder.messages.count == 4)

    let first = folder.messages[0]
    #expect(first.status.hasBeenSeen)
    #expect(first.id == "4601204")
    #expect(first.sender?.name == "InFlames235")
    // The folder list links every sender to `userid=0`: no id to tell.
    #expect(first.sender?.id == nil)
    #expect(first.sentDate == Date(timeIntervalSince1970: 1_352_431_800))
    #expect(first.sentDateRaw == "Nov 8, 2012 at 21:30")
    #expect(first.subject == "Re: Awful app")
    #expect(!first.status.wasForwarded)
    #expect(!first.status.wasRepliedTo)

    #expect(folder.messages.map(\.id) == ["4601204", "4601162", "4600672", "4549686"])
    #expect(folder.messages[1].subject == "Awful app")
    #expect(folder.messages[1].status.wasRepliedTo)
    #expect(folder.messages[2].subject == "Re: Thanks again for the string encoding protips")
    #expect(folder.messages[2].sender?.name == "Salvador Dalvik")
    #expect(!folder.messages[2].status.wasRepliedTo)
    #expect(folder.messages[3].subject == "Re: Awful app etc.")
    #expect(folder.messages[3].sender?.name == "CamH")
    #expect(folder.messages[3].status.wasRepliedTo)
    #expect(folder.messages[3].iconAlt == "Something about sex")
    #expect(folder.messages[3].icon?.imageName == "sex")
    #expect(folder.messages[0].icon == nil)
  }

  @Test(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
  func singleMessage() throws {
    let message = try PrivateMessageScraper().scrape(Self.document("private-one.html"))
    #expect(message.id == "4601162")
    #expect(message.subject == "Awful app")
    #expect(message.status.hasBeenSeen)
    #expect(!message.status.wasRepliedTo)
    #expect(!message.status.wasForwarded)
    #expect(message.sentDate == Date(timeIntervalSince1970: 1_352_429_760))
    #expect(message.sentDateRaw == "Nov 8, 2012 20:56")
    #expect(message.bodyHTML.contains("awesome app"))
    #expect(plainText(message.body).hasPrefix("Hey man. First just wanted to say thanks for making an awesome app."))
    let author = try #require(message.author)
    #expect(author.id == "47395")
    #expect(author.name == "InFlames235")
    #expect(author.regdate == Date(timeIntervalSince1970: 1_073_973_600))
  }

  @Test(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
  func otherPagesAreNotMessages() throws {
    #expect(throws: ScrapeError.self) { try PrivateMessageScraper().scrape(Self.document("profile.html")) }
    #expect(throws: ScrapeError.self) { try PrivateMessageFolderScraper().scrape(Self.document("index.json")) }
    #expect(throws: ForumPageError.self) {
      try PrivateMessageFolderScraper().scrape(Self.document("error-must-register.html"))
    }
  }

  @Test func ownFolderWithUnreadForwardedAndShowAll() throws {
    let html = """
      <html><body><div class="pmwarn">Only the last 50 messages are shown. <a href="private.php?folderid=3&showall=1">Show all</a></div>
      <form class="folder"><select name="folderid"><option value="0">Inbox</option><option value="-1">Sent Items</option>
      <option value="3" selected>Goons</option></select></form>
      <table class="standard full"><tr><th class="title">Message Title</th></tr>
      <tr><td class="status"><img src="http://fi.somethingawful.com/images/newpm.gif"></td><td class="icon"></td>
      <td class="title"><a href="private.php?action=show&amp;privatemessageid=11">New one</a></td>
      <td class="sender"><a href="member.php?action=getinfo&amp;userid=5">Someone</a></td>
      <td class="date">Jan 18, 2013 at 7:28 PM</td></tr>
      <tr><td class="status"><img src="http://fi.somethingawful.com/images/pmforwarded.gif"></td><td class="icon"></td>
      <td class="title"><a href="private.php?action=show&amp;privatemessageid=12">Fwd</a></td>
      <td class="sender"><a href="member.php?action=getinfo&amp;userid=6">Other</a></td>
      <td class="date">January 2, 2013 at 09:05</td></tr></table></body></html>
      """
    let folder = try PrivateMessageFolderScraper().scrape(HTMLDocument(string: html))
    #expect(folder.isOnlyShowingLastFiftyMessages)
    #expect(folder.current == PrivateMessageFolder.Entry(id: "3", name: "Goons"))
    #expect(folder.messages.map(\.id) == ["11", "12"])
    #expect(!folder.messages[0].status.hasBeenSeen)
    #expect(folder.messages[0].sender == ForumUserReference(name: "Someone", id: "5"))
    #expect(folder.messages[0].sentDate == Date(timeIntervalSince1970: 1_358_558_880))
    #expect(folder.messages[1].status.hasBeenSeen)
    #expect(folder.messages[1].status.wasForwarded)
    // "January 2, 2013 at 09:05" in Chicago (CST, UTC-6).
    #expect(folder.messages[1].sentDate == Date(timeIntervalSince1970: 1_357_139_100))
  }

  /// A captured page with the URL it was fetched from, as the client hands it to the scrapers.
  static func document(_ name: String) throws -> HTMLDocument {
    try HTMLDocument(data: CapturedPages.data(name), url: CapturedPages.url(name))
  }
}
