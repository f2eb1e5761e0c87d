import AwfulBotTestKit
import ChatBridge
import ForumModel
import Foundation
import Testing

@testable import MatrixTransport

@Suite("Matrix message content")
struct MatrixMessageContentTests {
  static let link = "https://forums.example/showthread.php?threadid=42&perpage=40&pagenumber=1#post7"

  static func relay(_ body: [RichText], title: String = "Title") -> PostRelay {
    PostRelay(
      address: PostAddress(threadID: "42", postID: "7", index: 1), threadTitle: title, author: "author",
      date: ChatDate(Date(timeIntervalSince1970: 1_735_830_240), timeZone: .gmt), link: link,
      threadLink: "https://forums.example/showthread.php?threadid=42",
      body: body, excerptLength: 400)
  }

  /// The content of the first event the renderer makes for `message`.
  static func content(
    _ message: OutgoingMessage, thread: MatrixThreadPosition? = nil, suppressPreviews: Bool = true
  ) -> JSONValue {
    let rendered = MatrixRenderer().render(message.content)[0]
    return MatrixMessageContent.content(
      for: message, rendered: rendered, thread: thread, suppressPreviews: suppressPreviews)
  }

  @Test("a relayed post is a notice with HTML, no mentions and no link previews")
  func relay() {
    let message = OutgoingMessage(
      .post(Self.relay([.text("@room "), .bold([.text("hello")])], title: "@everyone")), threadKey: "42")
    let content = Self.content(message)
    #expect(content["msgtype"] == "m.notice")
    #expect(content["format"] == "org.matrix.custom.html")
    #expect(
      content["body"]
        == .string("@\u{2060}everyone — author, 2025-01-02 15:04 UTC\n@\u{2060}room hello\n\(Self.link)"))
    let html = content["formatted_body"]?.stringValue ?? ""
    #expect(html.hasSuffix("@\u{2060}room <b>hello</b>"))
    #expect(!html.contains("@room") && !html.contains("@everyone"))
    #expect(content["m.mentions"] == [:])
    #expect(content["com.beeper.linkpreviews"] == [])
    #expect(content["m.url_previews"] == [])
    #expect(content["m.relates_to"] == nil)
    #expect(Self.content(message, suppressPreviews: false)["com.beeper.linkpreviews"] == nil)
  }

  @Test("a command answer replies to the command, with HTML, and may show previews")
  func reply() {
    let message = OutgoingMessage(.answer(CommandAnswer("Bookmarked.")), inReplyTo: "$command")
    let content = Self.content(message)
    #expect(content["m.relates_to"] == ["m.in_reply_to": ["event_id": "$command"]])
    #expect(content["body"] == "Bookmarked.")
    #expect(content["formatted_body"] == "<p>Bookmarked.</p>")
    #expect(content["com.beeper.linkpreviews"] == nil)
    #expect(content["m.mentions"] == [:])
  }

  @Test("an edit replaces the original with m.new_content")
  func edit() {
    let summary = PostSummary(
      threadTitle: "Busy", threadLink: "https://f.example/t", count: 5, authors: ["a"], latestAuthor: "a",
      latestLink: "https://f.example/p", afterReplayCap: false)
    let message = OutgoingMessage(.summary(summary), replaces: "$burst", threadKey: "42")
    let content = Self.content(message, thread: MatrixThreadPosition(root: "$root", latest: "$latest"))
    let body = "5 new posts in “Busy” by a (latest by a): https://f.example/p"
    let html =
      #"5 new posts in <b><a href="https://f.example/t">Busy</a></b> by a (<a href="https://f.example/p">latest by a</a>)"#
    #expect(content["m.relates_to"] == ["rel_type": "m.replace", "event_id": "$burst"])
    #expect(content["body"] == .string("* " + body))
    #expect(content["formatted_body"] == .string("* " + html))
    #expect(content["m.new_content"]?["body"] == .string(body))
    #expect(content["m.new_content"]?["formatted_body"] == .string(html))
    #expect(content["m.new_content"]?["msgtype"] == "m.notice")
    #expect(content["m.new_content"]?["m.relates_to"] == nil)
    #expect(content["m.new_content"]?["m.mentions"] == [:])
    #expect(content["m.url_previews"] == [])
  }

  @Test("a post in a threaded room continues the forum thread's Matrix thread")
  func thread() {
    let message = OutgoingMessage(.post(Self.relay([.text("post")])), threadKey: "42")
    let content = Self.content(message, thread: MatrixThreadPosition(root: "$root", latest: "$latest"))
    #expect(content["m.relates_to"]?["rel_type"] == "m.thread")
    #expect(content["m.relates_to"]?["event_id"] == "$root")
    #expect(content["m.relates_to"]?["is_falling_back"] == true)
    #expect(content["m.relates_to"]?["m.in_reply_to"] == ["event_id": "$latest"])
  }

  @Test("an answer in a threaded room replies to its command, not into a thread")
  func replyInThreadedRoom() {
    let message = OutgoingMessage(.answer(CommandAnswer("ok")), inReplyTo: "$command")
    let content = Self.content(message, thread: MatrixThreadPosition(root: "$root", latest: "$latest"))
    #expect(content["m.relates_to"] == ["m.in_reply_to": ["event_id": "$command"]])
  }

  @Test("a legacy row is plain text, its mentions defused")
  func legacy() {
    let message = OutgoingMessage(.legacy(text: "old @room row", html: "<script>x</script>", link: nil))
    let content = Self.content(message)
    #expect(content["body"] == .string("old @\u{2060}room row"))
    #expect(content["formatted_body"] == nil && content["format"] == nil)
  }

  @Test("defusing the body again changes nothing")
  func defuseIsIdempotent() {
    let once = ChatText.defuseMentions("@room @alice:example.org a@b.com")
    #expect(ChatText.defuseMentions(once) == once)
    #expect(MatrixMessageContent.plainContent(text: once, html: nil).body == once)
  }
}
