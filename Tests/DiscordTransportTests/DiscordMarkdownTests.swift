import ChatBridge
import FakeDiscord
import Testing

@testable import DiscordTransport

/// Forum text escaped for Discord reads as written and does nothing else (read by `FakeDiscordReading`).
@Suite struct DiscordMarkdownTests {
  /// What the channel shows for `text` escaped, and what its markdown did besides links.
  private func read(_ text: String) -> FakeDiscordReading {
    FakeDiscordReading(DiscordMarkdown.escape(text))
  }

  @Test(arguments: [
    "**bold** __underline__ *italic* _italic_ ~~strike~~ ||spoiler|| `code` ```block```",
    "# heading", "## heading", "-# small", "- item", "* item", "+ item", "1. first", "12) twelfth", "> quote",
    ">>> everything after", "a back\\slash and \\*an escape\\*", "[masked](https://evil.example/)",
    "<@123> <@!123> <@&1> <#1> <t:1700000000:R> <:awful:123> <a:dance:456>",
  ])
  func formattingShowsAsWritten(_ text: String) {
    let reading = read(text)
    #expect(reading.text == text)
    #expect(reading.unexpectedEffects() == [])
  }

  @Test func massMentionsAreDefusedEverywhere() {
    for text in ["@everyone look", "hi @here", "mail@everyone.example", "@Everyone", "(@here)"] {
      let escaped = DiscordMarkdown.escape(text)
      let reading = FakeDiscordReading(escaped)
      #expect(reading.unexpectedEffects() == [], "\(text)")
      #expect(reading.text == text)
      #expect(!escaped.contains("@everyone") && !escaped.contains("@here"))
    }
  }

  /// A link whose user name part carries the mention (`scripts/fuzz discord` found one): it stays a link without a
  /// preview, its `@` followed by the zero-width space, so no mention shows even where a client would read one there.
  @Test func aLinkCarryingAMassMentionIsDefusedToo() {
    for (text, link) in [
      ("https://x@everyone", "https://x@\u{200B}everyone"),
      ("see https://user@HERE.example/page", "https://user@\u{200B}HERE.example/page"),
    ] {
      let escaped = DiscordMarkdown.escape(text)
      #expect(!escaped.lowercased().contains("@everyone") && !escaped.lowercased().contains("@here"), "\(escaped)")
      #expect(FakeDiscordReading(escaped).effects == [.link(link)], "\(escaped)")
    }
  }

  @Test func linksStayLinksWithoutPreview() {
    let reading = read("see https://forums.somethingawful.com/showthread.php?threadid=1&goto=lastpost#post2 now")
    #expect(reading.text == "see https://forums.somethingawful.com/showthread.php?threadid=1&goto=lastpost#post2 now")
    #expect(
      reading.effects == [.link("https://forums.somethingawful.com/showthread.php?threadid=1&goto=lastpost#post2")])
  }

  @Test func linkWithMarkdownCharactersIsNotEscapedInside() {
    let url = "https://example.com/a_b*c~d|e/(wiki)"
    let escaped = DiscordMarkdown.escape("link: \(url).")
    #expect(escaped == "link: <\(url)>.")
  }

  @Test func linkPreviewsKeepBareLinks() {
    let escaped = DiscordMarkdown.escape("at https://example.com/x", linkPreviews: true)
    #expect(FakeDiscordReading(escaped).effects == [.previewedLink("https://example.com/x")])
  }

  /// A masked link cannot show one address and lead to another: the brackets show, the real address is the link.
  @Test func maskedLinkShowsItsRealAddress() {
    let reading = read("[https://bank.example](https://evil.example/steal)")
    #expect(reading.text == "[https://bank.example](https://evil.example/steal)")
    #expect(!reading.effects.contains { if case .maskedLink = $0 { true } else { false } })
  }

  @Test func angleBracketURLFromTheForumCannotSwallowText() {
    let reading = read("<https://a.example/>x **y**")
    #expect(reading.text == "<https://a.example/>x **y**")
    #expect(reading.unexpectedEffects() == [])
  }
}
