import AwfulBotTestKit
import ChatBridge
import AwfulScraping
import Foundation
import Testing

@testable import BotCore

@Suite("Rendering summaries, announcements, digests and replies")
struct RenderSummaryTests {
  let renderer = PostRenderer(baseURL: URL(string: "https://forums.somethingawful.com/")!)
  let html = ChatCapabilities(html: true, edits: false, threads: false, maxMessageBytes: 65_000, notices: true)

  @Test("a summary counts posts and names the authors once each")
  func summary() {
    let message = renderer.renderSummary(
      threadID: "7", threadTitle: "Busy @room", count: 12, authors: ["a", "b", "a", "c", "d", "e"], latestPostID: "99",
      latestAuthor: "e", capabilities: html)
    #expect(message.text.hasPrefix("12 new posts in “Busy @\u{2060}room” by a, b, c and 2 others (latest by e): "))
    #expect(message.text.hasSuffix("threadid=7&perpage=40&noseen=1#post99"))
    #expect(message.html?.contains("latest by e</a>") == true)
    let one = renderer.renderSummary(
      threadID: "7", threadTitle: "T", count: 1, authors: ["a"], latestPostID: nil, latestAuthor: nil,
      capabilities: .plainText)
    #expect(one.text.hasPrefix("1 new post in “T” by a (latest)"))
  }

  @Test("an announcement shows its title, author and excerpt with the announcements link")
  func announcement() {
    let announcement = Announcement(
      title: "Rules update", author: PostAuthor(name: "Lowtax"), date: nil, bodyHTML: "",
      body: [.text("Be excellent @everyone")])
    let message = renderer.renderAnnouncement(announcement, title: nil, capabilities: html)
    #expect(message.text.hasPrefix("Announcement: Rules update — Lowtax\nBe excellent @\u{2060}everyone"))
    #expect(message.link == "https://forums.somethingawful.com/announcement.php?forumid=1")
    #expect(
      message.html?.contains(
        "<b><a href=\"https://forums.somethingawful.com/announcement.php?forumid=1\">Rules update</a></b>") == true)
    #expect(renderer.renderAnnouncement(announcement, title: "Override", capabilities: html).text.contains("Override"))
  }

  @Test("a digest lists threads and counts those that do not fit")
  func digest() {
    let entries = (1...50).map {
      DigestEntry(
        threadID: "\($0)", threadTitle: "Thread number \($0)", postCount: $0, authors: ["x", "y"],
        firstPostID: "\($0)00")
    }
    let small = ChatCapabilities(html: true, edits: false, threads: false, maxMessageBytes: 1200, notices: false)
    let message = renderer.renderDigest(title: "Daily digest", entries: entries, capabilities: small)
    #expect(message.text.hasPrefix("Daily digest\n• Thread number 1: 1 new post by x and y https://"))
    #expect(message.text.utf8.count <= 1200 && (message.html?.utf8.count ?? 0) <= 1200)
    #expect(message.text.contains("more threads."))
    #expect(message.text.contains("#post100"))
    let empty = renderer.renderDigest(title: "Hourly", entries: [], capabilities: .plainText)
    #expect(empty.text == "Hourly\nNothing new.")
  }

  @Test("command replies: plain and HTML, links clickable, long lists cut")
  func replies() {
    var reply = CommandReply()
    reply.add(.text("See "), .link(label: "thread", url: "https://forums.somethingawful.com/showthread.php?threadid=1"))
    reply.add(.link(label: "bad", url: "javascript:alert(1)"))
    let message = reply.message(inReplyTo: "$ev", capabilities: html)
    #expect(message.kind == .reply && message.inReplyTo == "$ev")
    #expect(
      message.text == "See thread https://forums.somethingawful.com/showthread.php?threadid=1\nbad javascript:alert(1)")
    #expect(
      message.html?.contains(#"<a href="https://forums.somethingawful.com/showthread.php?threadid=1">thread</a>"#)
        == true)
    #expect(message.html?.contains("javascript") == false)

    var long = CommandReply()
    for index in 1...200 { long.add("line \(index) with some text") }
    let cut = long.message(
      inReplyTo: nil,
      capabilities: .init(html: false, edits: false, threads: false, maxMessageBytes: 500, notices: false))
    #expect(cut.text.utf8.count <= 500)
    #expect(cut.text.contains("more lines not shown"))
  }

  @Test("plainText of a rich-text tree follows browser whitespace and marks blocks")
  func plainTextConversion() {
    let nodes: [RichText] = [
      .text("  a \n  b "), .paragraph([.text("para")]),
      .quote(author: "X", postID: nil, [.text("q1"), .lineBreak, .lineBreak, .text("q2")]),
      .list([[.text("one")], [.text("two")]]), .link(url: "https://e.com", [.text("label")]),
      .spoiler([.text("hidden")]),
    ]
    #expect(plainText(nodes) == "a b\npara\n> X posted:\n> q1\n>\n> q2\n• one\n• two\nlabel (https://e.com)hidden")
    #expect(plainText(nodes, spoilers: .hidden).hasSuffix("(https://e.com)[spoiler]"))
  }

  @Test("a hidden spoiler takes the place of its text without adding spaces")
  func hiddenSpoilerKeepsTheSentence() {
    let nodes: [RichText] = [.text("the killer is "), .spoiler([.text("the butler")]), .text(".")]
    #expect(plainText(nodes, spoilers: .hidden) == "the killer is [spoiler].")
    #expect(plainText(nodes) == "the killer is the butler.")
  }
}
