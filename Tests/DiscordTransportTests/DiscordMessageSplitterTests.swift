import FakeDiscord
import Testing

@testable import DiscordTransport

@Suite struct DiscordMessageSplitterTests {
  @Test func shortLinesShareOneMessage() {
    #expect(DiscordMessageSplitter.split(["a", "b", "c"]) == ["a\nb\nc"])
  }

  @Test func messagesSplitBetweenLinesWithinTheLimit() {
    let lines = (1...300).map { "line \($0) " + String(repeating: "x", count: 20) }
    let messages = DiscordMessageSplitter.split(lines)
    #expect(messages.count > 1)
    #expect(messages.allSatisfy { DiscordMessageSplitter.length($0) <= DiscordMessageSplitter.contentLimit })
    // Nothing lost, nothing cut: the lines come back whole and in order.
    #expect(messages.flatMap { $0.split(separator: "\n").map(String.init) } == lines)
  }

  @Test func anOverlongLineSplitsBetweenWords() {
    let words = (1...600).map { "word\($0)" }
    let messages = DiscordMessageSplitter.split([words.joined(separator: " ")])
    #expect(messages.count > 1)
    #expect(messages.allSatisfy { DiscordMessageSplitter.length($0) <= 2_000 })
    #expect(messages.joined(separator: " ").split(separator: " ").map(String.init) == words)
  }

  @Test func aSplitNeverSeparatesAnEscapeFromItsCharacter() {
    // 1,999 letters then an escaped star: the cut must not fall between `\` and `*`.
    let line = String(repeating: "a", count: 1_999) + "\\*" + String(repeating: "b", count: 10)
    let messages = DiscordMessageSplitter.split([line])
    #expect(messages.count == 2)
    #expect(!messages[0].hasSuffix("\\"))
    #expect(
      messages.map { FakeDiscordReading($0).text }.joined() == String(repeating: "a", count: 1_999) + "*"
        + String(repeating: "b", count: 10))
  }

  @Test func aLongQuoteLineStaysQuotedInEveryPiece() {
    let line = "> " + Array(repeating: "quoted", count: 500).joined(separator: " ")
    let messages = DiscordMessageSplitter.split([line])
    #expect(messages.count > 1)
    #expect(messages.allSatisfy { $0.hasPrefix("> ") && DiscordMessageSplitter.length($0) <= 2_000 })
  }

  @Test func wideCharactersCountAsDiscordCountsThem() {
    // Each emoji is two UTF-16 units: 1,500 of them do not fit in one message.
    let line = String(repeating: "😀", count: 1_500)
    let messages = DiscordMessageSplitter.split([line])
    #expect(messages.count == 2)
    #expect(messages.joined() == line)
  }

  @Test func oneCharacterLongerThanAMessageIsCutBetweenItsCodePoints() {
    let zalgo = "a" + String(repeating: "\u{0301}", count: 2_500)
    let messages = DiscordMessageSplitter.split([zalgo])
    #expect(messages.count == 2)
    #expect(messages.allSatisfy { DiscordMessageSplitter.length($0) <= 2_000 })
    #expect(messages.joined().unicodeScalars.count == zalgo.unicodeScalars.count)
  }
}
