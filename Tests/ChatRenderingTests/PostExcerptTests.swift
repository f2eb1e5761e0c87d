import AwfulBotTestKit
import ChatBridge
import ChatRendering
import ForumModel
import Testing

@Suite("Post excerpts: own words first, quotes shortened")
struct PostExcerptTests {
  /// The excerpt's readable text, spoilers hidden as in chat.
  func text(_ excerpt: PostExcerpt) -> String {
    plainText(excerpt.nodes, spoilers: .hidden)
  }

  @Test("a short post is kept whole")
  func short() {
    let excerpt = PostExcerpt([.text("Hello there.")], maxCharacters: 400)
    #expect(excerpt.nodes == [.text("Hello there.")])
    #expect(!excerpt.wasCut && !excerpt.ownWordsWereCut && !excerpt.onlyQuotes)
  }

  @Test("a long quote is shortened under its own budget so the answer after it is kept whole")
  func quoteThenAnswer() {
    let excerpt = PostExcerpt(RenderingFixture.quoteThenAnswer, maxCharacters: 400)
    let blah = Array(repeating: "blah", count: 16).joined(separator: " ")
    #expect(
      excerpt.nodes == [
        .quote(author: "Alice", postID: "411637955", [.text(blah + "…")]), .text("I disagree entirely."),
      ])
    #expect(excerpt.wasCut, "the quote was shortened: the rest is behind the link")
    #expect(!excerpt.ownWordsWereCut)
    #expect(text(excerpt) == "> Alice posted:\n> \(blah)…\nI disagree entirely.")
  }

  @Test("even a small budget keeps the answer: a quote never takes more than a quarter of it")
  func smallBudget() {
    let body: [RichText] = [
      .quote(author: "Alice", postID: nil, [.text(String(repeating: "quoted words ", count: 50))]),
      .text("Short answer here."),
    ]
    let excerpt = PostExcerpt(body, maxCharacters: 80)
    #expect(text(excerpt).hasSuffix("\nShort answer here."))
    #expect(text(excerpt).hasPrefix("> Alice posted:\n> quoted"))
  }

  @Test("quotes inside a quote are left out")
  func nestedQuotes() {
    let body: [RichText] = [
      .quote(author: "Alice", postID: "2", [.quote(author: "Bob", postID: "1", [.text("original")]), .text("reply")]),
      .text("mine"),
    ]
    let excerpt = PostExcerpt(body, maxCharacters: 400)
    #expect(excerpt.nodes == [.quote(author: "Alice", postID: "2", [.text("reply")]), .text("mine")])
    #expect(!text(excerpt).contains("Bob"))
  }

  @Test("a post of quotes alone shows them with the whole budget and says it is only quotes")
  func onlyQuotes() {
    let long = String(repeating: "said ", count: 40)
    let excerpt = PostExcerpt([.quote(author: "Alice", postID: "1", [.text(long)])], maxCharacters: 400)
    #expect(excerpt.onlyQuotes)
    #expect(!excerpt.wasCut, "200 characters fit the whole budget")
    #expect(
      TextRendering.excerptLines([.quote(author: "Alice", postID: "1", [.text("hm")])], maxCharacters: 400) == [
        "> Alice posted:", "> hm", "(only a quote, no words of their own)",
      ])
  }

  @Test("long own words are cut at a word, with an ellipsis, and marked as cut")
  func ownWordsCut() {
    let excerpt = PostExcerpt([.text("one two three four five six seven eight nine ten")], maxCharacters: 20)
    #expect(excerpt.nodes == [.text("one two three four…")])
    #expect(excerpt.wasCut && excerpt.ownWordsWereCut)
  }

  @Test("a cut before a later block is marked on the last line shown")
  func blockCut() {
    let body: [RichText] = [
      .paragraph([.text(String(repeating: "a", count: 30))]), .paragraph([.text(String(repeating: "b", count: 30))]),
    ]
    let lines = TextRendering.excerptLines(body, maxCharacters: 30)
    #expect(lines == [String(repeating: "a", count: 30) + " …"])
  }

  @Test("images, smilies and code count toward the budget and stay what they are")
  func media() {
    let body: [RichText] = [
      .image(url: "https://i.example/cat.png"), .smilie(code: ":nws:", url: "https://fi.example/nws.gif"),
      .code("let x = 1"),
    ]
    let excerpt = PostExcerpt(body, maxCharacters: 400)
    #expect(excerpt.nodes == body)
    #expect(text(excerpt) == "[image] https://i.example/cat.png :nws:\nlet x = 1")
  }
}
