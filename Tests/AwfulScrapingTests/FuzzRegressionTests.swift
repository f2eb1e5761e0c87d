import ForumModel
import Foundation
import Testing

@testable import AwfulScraping

/// Every input the fuzzers (scripts/fuzz) found crashing, kept in `FuzzRegressions/<target>/`, goes through every
/// scraper, the post-body converter and the date reader again: none may trap. The folder is also part of each fuzz
/// run's seed corpus.
struct FuzzRegressionTests {
  static let inputs: [(name: String, data: Data)] = {
    guard let folder = Bundle.module.url(forResource: "FuzzRegressions", withExtension: nil),
      let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
    else { return [] }
    var inputs: [(String, Data)] = []
    for case let file as URL in walker where !file.lastPathComponent.hasPrefix(".") {
      guard (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
        let data = try? Data(contentsOf: file)
      else { continue }
      inputs.append((file.deletingLastPathComponent().lastPathComponent + "/" + file.lastPathComponent, data))
    }
    return inputs.sorted { $0.0 < $1.0 }
  }()

  @Test func thereAreRegressionInputs() {
    #expect(!Self.inputs.isEmpty)
  }

  @Test(arguments: Self.inputs.map(\.name))
  func noScraperTraps(on name: String) throws {
    let data = try #require(Self.inputs.first { $0.name == name }?.data)
    let url = URL(string: "https://forums.somethingawful.com/showthread.php?threadid=3507451&perpage=40&pagenumber=5")!
    for expectation in [ThreadListScraper.Expectation.any, .bookmarks, .forum] {
      _ = try? ThreadListScraper().scrape(data: data, url: url, expecting: expectation)
    }
    _ = try? PostsPageScraper().scrape(data: data, url: url)
    _ = try? AnnouncementsScraper().scrape(data: data, url: url)
    _ = try? ShowPostScraper().scrape(data: data, url: url)
    _ = try? ErrorPageScraper().scrape(data: data, url: url)
    _ = PageKind.detect(data: data, url: url)
    if let document = try? HTMLDocument(data: data, url: url) { _ = ProbationScraper().scrape(document) }
    _ = try? ReplyFormScraper().scrape(data: data, url: url)
    _ = try? ReplyResultScraper().scrape(data: data, url: url)
    _ = try? ForumIndexScraper().scrape(data: data, url: url)
    _ = try? PrivateMessageScraper().scrape(data: data, url: url)
    _ = try? PrivateMessageFolderScraper().scrape(data: data, url: url)
    _ = try? PrivateMessageSendResultScraper().scrape(data: data, url: url)
    if let document = try? HTMLDocument(data: data, url: url) {
      _ = try? LepersColonyScraper().read(document)
      _ = try? ProfileUserScraper().scrape(document)
    }
    _ = ForumDates().date(from: String(decoding: data, as: UTF8.self))
  }

  @Test(arguments: Self.inputs.map(\.name))
  func noPostBodyTraps(on name: String) throws {
    let data = try #require(Self.inputs.first { $0.name == name }?.data)
    var page = Data("<html><body><table class=\"post\" id=\"post1\"><tr><td class=\"postbody\">".utf8)
    page.append(data)
    page.append(contentsOf: "</td></tr></table></body></html>".utf8)
    let document = try HTMLDocument(data: page, contentTypeCharset: "utf-8")
    let cell = try #require(document.body?.firstDescendant("td", class: "postbody"))
    let content = PostContent(cell)
    _ = PostBodyConverter(baseURL: nil).convert(content.nodes)
    let children = cell.children.map(\.raw)
    if let ours = HTMLSerializer.withBytes(of: children, { String(decoding: $0, as: UTF8.self) }) {
      #expect(ours == HTMLNode.serializeWithLibXML2(children) { String(decoding: $0, as: UTF8.self) })
    }
  }

  @Test func anOverlongNumberIsNoDate() {
    #expect(ForumDates().date(from: "AM Jan 88888888888888888888") == nil)
    #expect(ForumDates().date(from: "Jan 2, 99999999999999999999 10:00") == nil)
    #expect(ForumDates().date(from: "1/2/99999999999999999999") == nil)
    #expect(ForumDates().date(from: "Jan 2, 2013 99999999999999999999:00") == nil)
  }
}
