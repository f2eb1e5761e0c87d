import AwfulBotEngineTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

@testable import BotCore

@Suite("Thread references")
struct CommandThreadReferenceTests {
  let base = URL(string: "https://forums.example.test/")!

  func parse(_ text: String) -> Result<ThreadReference, ThreadReference.ParseError> {
    ThreadReference.parse(text, baseURL: base)
  }

  @Test(
    "every link form",
    arguments: [
      ("3526065", ThreadReference.thread(id: "3526065")),
      ("https://forums.somethingawful.com/showthread.php?threadid=3526065", .thread(id: "3526065")),
      (
        "https://forums.somethingawful.com/showthread.php?threadid=3526065&perpage=40&pagenumber=3",
        .thread(id: "3526065")
      ),
      ("forums.somethingawful.com/showthread.php?threadid=3526065", .thread(id: "3526065")),
      ("http://archives.somethingawful.com/showthread.php?threadid=12", .thread(id: "12")),
      ("<https://forums.somethingawful.com/showthread.php?threadid=12>", .thread(id: "12")),
      ("https://forums.example.test/showthread.php?threadid=77", .thread(id: "77")),
      (
        "https://forums.somethingawful.com/showthread.php?goto=post&postid=411637955",
        .post(id: "411637955", threadID: nil)
      ),
      (
        "https://forums.somethingawful.com/showthread.php?action=showpost&postid=428957756",
        .post(id: "428957756", threadID: nil)
      ),
      (
        "https://forums.somethingawful.com/showthread.php?threadid=3526065&perpage=40&noseen=1#post411639264",
        .post(id: "411639264", threadID: "3526065")
      ),
      ("https://forums.somethingawful.com/showthread.php?noseen=1#post5", .post(id: "5", threadID: nil)),
    ])
  func linkForms(_ text: String, _ expected: ThreadReference) {
    #expect(parse(text) == .success(expected))
  }

  @Test(
    "foreign hosts are refused",
    arguments: [
      "https://evil.example.com/showthread.php?threadid=1",
      "https://somethingawful.com.evil.net/showthread.php?threadid=1",
    ])
  func foreignHosts(_ text: String) {
    guard case .failure(.foreignHost) = parse(text) else {
      Issue.record("expected a foreign host refusal for \(text)")
      return
    }
  }

  @Test("text that is no thread and forum links that are no thread link")
  func notThreads() {
    #expect(parse("hello") == .failure(.notAThread("hello")))
    #expect(parse("-5") == .failure(.notAThread("-5")))
    #expect(parse("https://forums.somethingawful.com/forumdisplay.php?forumid=26") == .failure(.notAThreadLink))
    #expect(parse("javascript:alert(1)") == .failure(.notAThread("javascript:alert(1)")))
  }

  @Test("the unfurler finds links in a chat line, once each, with the page")
  func unfurlerLinks() async {
    let forum = TestForum(baseURL: URL(string: "https://forums.somethingawful.com/")!)
    let unfurler = LinkUnfurler(forum: forum)
    let links = unfurler.links(
      in: "see (https://forums.somethingawful.com/showthread.php?threadid=9&pagenumber=4), "
        + "https://forums.somethingawful.com/showthread.php?threadid=9&pagenumber=4 and https://x.test/showthread.php?threadid=1"
    )
    #expect(links.count == 1)
    #expect(links.first?.reference == .thread(id: "9"))
    #expect(links.first?.page == 4)
  }
}
