import Testing

@testable import BotCore

@Suite("Quoted posts")
struct QuotedPostTests {
  @Test("nested quotes are left out at any depth and in any case; unclosed tags and text stay")
  func nestedQuotes() {
    #expect(QuotedPost.withoutNestedQuotes("mine [quote=a]theirs [QUOTE]deeper[/quote] x[/Quote] more") == "mine  more")
    #expect(QuotedPost.withoutNestedQuotes("Zoë [quote post=\"1\"]é[/quote]🍁") == "Zoë 🍁")
    #expect(QuotedPost.withoutNestedQuotes("a [/quote] b") == "a  b", "a stray close tag goes, depth stays 0")
    #expect(
      QuotedPost.withoutNestedQuotes("ok [quotes are] gone") == "ok ", "an opening tag never closed ends the words")
    #expect(QuotedPost.withoutNestedQuotes("open [quote never closed") == "open [quote never closed")
    #expect(QuotedPost.withoutNestedQuotes("[b]bold[/b] [quo") == "[b]bold[/b] [quo")
  }

  @Test("a post of 100,000 unclosed quote tags is read in one pass and kept as written")
  func unclosedTags() {
    let hostile = String(repeating: "[quote", count: 100_000)
    #expect(QuotedPost.withoutNestedQuotes(hostile) == hostile)
    let opened = String(repeating: "[quote]", count: 50_000) + "tail"
    #expect(QuotedPost.withoutNestedQuotes(opened) == "")
  }
}
