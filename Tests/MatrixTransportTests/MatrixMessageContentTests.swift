import AwfulBotTestKit
import ChatBridge
import BotCore
import Testing

@testable import MatrixTransport

@Suite("Matrix message content")
struct MatrixMessageContentTests {
  @Test("a relayed post is a notice with HTML, no mentions and no link previews")
  func relay() {
    let message = OutgoingMessage(
      kind: .relay, text: "Title — author\n@room hello\nhttps://forums.example/p", html: "<p>@room <b>hello</b></p>",
      threadKey: "42")
    let content = MatrixMessageContent.content(for: message, thread: nil, suppressPreviews: true)
    #expect(content["msgtype"] == "m.notice")
    #expect(content["format"] == "org.matrix.custom.html")
    #expect(content["formatted_body"]?.stringValue == "<p>@\u{2060}room <b>hello</b></p>")
    #expect(content["body"]?.stringValue?.contains("@room") == false)
    #expect(content["m.mentions"] == [:])
    #expect(content["com.beeper.linkpreviews"] == [])
    #expect(content["m.relates_to"] == nil)
  }

  @Test("a command reply answers the command and may show previews")
  func reply() {
    let message = OutgoingMessage(.answer(CommandAnswer("Bookmarked.", inReplyTo: "$command")))
    let content = MatrixMessageContent.content(for: message, thread: nil, suppressPreviews: true)
    #expect(content["m.relates_to"] == ["m.in_reply_to": ["event_id": "$command"]])
    #expect(content["formatted_body"] == nil)
    #expect(content["com.beeper.linkpreviews"] == nil)
  }

  @Test("an edit replaces the original with m.new_content")
  func edit() {
    let message = OutgoingMessage(kind: .relay, text: "5 new posts", html: "<b>5</b> new posts", replaces: "$burst")
    let content = MatrixMessageContent.content(for: message, thread: nil, suppressPreviews: false)
    #expect(content["m.relates_to"] == ["rel_type": "m.replace", "event_id": "$burst"])
    #expect(content["body"] == "* 5 new posts")
    #expect(content["m.new_content"]?["body"] == "5 new posts")
    #expect(content["m.new_content"]?["formatted_body"] == "<b>5</b> new posts")
    #expect(content["m.new_content"]?["msgtype"] == "m.notice")
    #expect(content["m.new_content"]?["m.relates_to"] == nil)
  }

  @Test("a post in a threaded room continues the forum thread's Matrix thread")
  func thread() {
    let message = OutgoingMessage(kind: .relay, text: "post", threadKey: "42")
    let position = MatrixThreadPosition(root: "$root", latest: "$latest")
    let content = MatrixMessageContent.content(for: message, thread: position, suppressPreviews: true)
    #expect(content["m.relates_to"]?["rel_type"] == "m.thread")
    #expect(content["m.relates_to"]?["event_id"] == "$root")
    #expect(content["m.relates_to"]?["is_falling_back"] == true)
    #expect(content["m.relates_to"]?["m.in_reply_to"] == ["event_id": "$latest"])
  }
}
