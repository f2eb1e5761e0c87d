import ForumModel
import Foundation
import Testing

@testable import AwfulScraping

/// A forum page is input from outside: its counts, indexes and page numbers are brought into
/// `1...Clamp.forumNumber` (or `0...` for counts) as they are read, so the arithmetic on them (a post's page, the
/// index of a post between two known ones, the next page) cannot overflow and stop the process (issue 43).
struct HostileNumberScrapingTests {
  let forumURL = URL(string: "https://forums.somethingawful.com/")!

  /// thread-odd-markup.html with every number the scraper reads turned to the ends of `Int`.
  func hostileThreadPage() throws -> Data {
    var text = String(decoding: try OwnPages.data("thread-odd-markup.html"), as: UTF8.self)
    for (from, to) in [
      (#"DATA-IDX="81""#, #"DATA-IDX="9223372036854775807""#),
      (#"data-idx="84""#, #"data-idx="-9223372036854775808""#),
      (#"data-current-page="3""#, #"data-current-page="9223372036854775807""#),
      (#"data-total-pages="7""#, #"data-total-pages="9223372036854775807""#),
      (#"data-per-page="40""#, #"data-per-page="9223372036854775807""#),
    ] {
      #expect(text.contains(from))
      text = text.replacingOccurrences(of: from, with: to)
    }
    return Data(text.utf8)
  }

  @Test("indexes, page numbers and the page size at the ends of Int are clamped, and nothing overflows")
  func threadPageAtTheEndsOfInt() throws {
    for perPage in ["9223372036854775807", "0", "-1"] {
      let url = URL(
        string: "showthread.php?threadid=4000002&perpage=\(perPage)#pti9223372036854775807", relativeTo: forumURL)!
      let page = try PostsPageScraper().scrape(data: try hostileThreadPage(), url: url.absoluteURL)
      #expect(page.page == PageNavigation(current: Clamp.forumNumber, total: Clamp.forumNumber))
      #expect((1...Clamp.forumNumber).contains(page.postsPerPage))
      #expect(page.posts.allSatisfy { (1...Clamp.forumNumber + 4).contains($0.index) })
      #expect(page.posts.first?.index == Clamp.forumNumber)
      #expect(page.posts.last?.index == 1)
      for post in page.posts {
        _ = PostAddress(threadID: page.threadID, postID: post.id, index: post.index).page
      }
    }
  }

  @Test("a count or page number in forum text is read within 0…Clamp.forumNumber")
  func countsAreClamped() {
    #expect(PageChrome.int("9223372036854775807") == Clamp.forumNumber)
    #expect(PageChrome.int("9,223,372,036,854,775,807") == Clamp.forumNumber)
    #expect(PageChrome.int("-9223372036854775808") == 0)
    #expect(PageChrome.int("35,711") == 35_711)
    #expect(PageChrome.int("99999999999999999999") == nil)
  }

  @Test("the model's own arithmetic takes any Int")
  func modelArithmetic() {
    #expect(PostAddress.page(ofIndex: .min) == 1)
    #expect(PostAddress.page(ofIndex: .max) == (Int.max - 1) / forumPageSize + 1)
    #expect(PostAddress.page(ofIndex: 41) == 2)
    #expect(ThreadListThread(id: "1", title: "t", replyCount: .max).postCount == Clamp.forumNumber + 1)
    #expect(ThreadListThread(id: "1", title: "t", replyCount: 39).postCount == 40)
  }

  @Test("durations from outside saturate instead of trapping")
  func clampHelpers() {
    #expect(Clamp.seconds(.infinity, atMost: Clamp.day) == .seconds(86_400))
    #expect(Clamp.seconds(.nan, atMost: Clamp.day) == .zero)
    #expect(Clamp.seconds(-1e300, atMost: Clamp.day) == .zero)
    #expect(Clamp.seconds(1e300, atMost: .infinity) == .milliseconds(9_000_000_000_000_000_000))
    #expect(Clamp.seconds(1.5, atMost: Clamp.day) == .milliseconds(1500))
  }
}
