import ChatBridge
import ForumModel
import Foundation
import Testing

@testable import IRCTransport

/// What the acceptance suite found reading the renderer's output as a person would, pinned without a network: in the
/// full style at the default four lines the poster's own words outlast their quotes, code on one compact line still
/// reads as code, and the posts inside an answer stand indented under their author.
@Suite("IRC rendering read as a person would")
struct IRCRendererReadingTests {
  static let link = IRCRendererTests.link
  static let budget = IRCRendererTests.budget
  static let full = IRCRenderer(style: .full)

  static func lines(_ body: [RichText], _ renderer: IRCRenderer = full) -> [String] {
    renderer.lines(for: .post(IRCRendererTests.relay(body)), maxBytesPerLine: budget)
  }

  @Test("full style, four lines: a short quote and its answer both fit, the quote on one line")
  func quoteAndAnswerInFourLines() throws {
    let lines = Self.lines([
      .quote(author: "angerbot", postID: "1", [.text("Please stay on topic.")]), .text("I will, promise."),
    ])
    #expect(
      lines == [
        "A Thread — Goon, 2023-11-14 22:13 UTC", "> angerbot posted: Please stay on topic.", "I will, promise.",
        Self.link,
      ])
    try IRCRendererTests.checkLines(lines, budget: Self.budget)
  }

  @Test("full style, four lines: a long quote is shortened on its one line; the answer stays whole")
  func longQuoteGivesWay() throws {
    let lines = Self.lines([
      .quote(author: "Alice", postID: "1", [.text(String(repeating: "blah ", count: 200))]),
      .text("I disagree entirely."),
    ])
    #expect(lines.count == 4)
    #expect(lines[1].hasPrefix("> Alice posted: blah blah") && lines[1].hasSuffix("…"))
    #expect(lines[2] == "I disagree entirely.")
    #expect(lines[3] == Self.link)
    try IRCRendererTests.checkLines(lines, budget: Self.budget)
  }

  @Test("full style, four lines: several quotes make one “replying to” line before the answer")
  func severalQuotes() {
    let lines = Self.lines([
      .quote(author: "Alice", postID: "1", [.text("one")]), .quote(author: "Bob", postID: "2", [.text("two")]),
      .text("You are both right."),
    ])
    #expect(
      lines == [
        "A Thread — Goon, 2023-11-14 22:13 UTC", "(replying to Alice and Bob)", "You are both right.", Self.link,
      ])
  }

  @Test("full style, four lines: a post of quotes alone keeps the quote and says it has no words of its own")
  func onlyAQuote() {
    let lines = Self.lines([
      .quote(
        author: "Majuju", postID: "1", [.quote(author: "angerbot", postID: "0", [.text("inner")]), .text("outer")])
    ])
    #expect(
      lines == [
        "A Thread — Goon, 2023-11-14 22:13 UTC", "> Majuju posted: outer …", "(only a quote, no words of their own)",
        Self.link,
      ])
  }

  @Test("full style: own words longer than the lines are cut with …, after their one quote went on one line")
  func ownWordsCutLast() {
    let lines = Self.lines([
      .quote(author: "Alice", postID: "1", [.text("short")]),
      .paragraph([.text("first paragraph")]), .paragraph([.text("second paragraph")]),
      .paragraph([.text("third paragraph")]),
    ])
    #expect(
      lines == [
        "A Thread — Goon, 2023-11-14 22:13 UTC", "> Alice posted: short", "first paragraph …", Self.link,
      ])
  }

  @Test("compact style: code is one backquoted run with ⏎ between its lines, apart from the words after it")
  func compactCode() {
    let lines = Self.lines(
      [.code("let x = 1\n    print(x)\n"), .text("That prints 1.")], IRCRenderer())
    #expect(lines == ["[A Thread] Goon: `let x = 1 ⏎ print(x)` That prints 1. \(Self.link)"])
  }

  @Test("an answer listing posts (`latest`) keeps their lines indented under “• author”")
  func answerIndentation() {
    let post = IRCRendererTests.relay([
      .quote(author: "Pickled Tink", postID: "1", [.text("A news link.")]), .text("Please stay on topic."),
    ])
    let answer = CommandAnswer(lines: [.sentence([.text("Last post:")]), .post(post)])
    #expect(
      IRCRenderer().lines(for: .answer(answer), maxBytesPerLine: Self.budget) == [
        "Last post:", "• Goon, 2023-11-14 22:13 UTC:", "  > Pickled Tink posted:", "  > A news link.",
        "  Please stay on topic.", "  \(Self.link)",
      ])
  }
}
