import ChatBridge
import FakeDiscord
import ForumModel
import Testing

@testable import DiscordTransport

/// Whole messages as the channel shows them: the forum's words as written, the bot's own bold and quotes, nothing
/// else (no mention, no heading, no masked link, no spoiler) whatever a post says.
@Suite struct DiscordRendererTests {
  static func relay(title: String, author: String, body: [RichText], excerptLength: Int = 2_000) -> PostRelay {
    PostRelay(
      address: PostAddress(threadID: "1", postID: "5", index: 1), threadTitle: title, author: author, date: nil,
      link: "https://forums.example/showthread.php?goto=post&postid=5#post5",
      threadLink: "https://forums.example/showthread.php?threadid=1", body: body, excerptLength: excerptLength)
  }

  /// The hostile case of issue 45: a post with `@everyone`, `<@123>` and markdown that would break the message.
  @Test func hostilePostReadsAsWrittenAndDoesNothingElse() {
    let post = Self.relay(
      title: "**Free** @everyone ||gift||", author: "<@123>",
      body: [
        .paragraph([.text("@everyone @here free stuff <@123> <@&1> <#1> <t:1:R>")]),
        .paragraph([.text("**bold** __under__ ||spoiler|| ~~x~~ `code` ```js")]),
        .paragraph([.text("# Heading")]),
        .paragraph([.text("[click here](https://evil.example/steal)")]),
        .paragraph([.text("> not a real quote")]),
        .paragraph([.text("- list\\")]),
        .quote(author: "Alice **bold**", postID: nil, [.text("**quoted** @everyone")]),
      ])
    let messages = DiscordRenderer().messages(.post(post))
    #expect(messages.count == 1)
    let reading = FakeDiscordReading(messages[0])
    #expect(
      reading.text.split(separator: "\n").map(String.init) == [
        "**Free** @everyone ||gift|| — <@123>",
        "@everyone @here free stuff <@123> <@&1> <#1> <t:1:R>",
        "**bold** __under__ ||spoiler|| ~~x~~ `code` ```js",
        "# Heading",
        "[click here](https://evil.example/steal)",
        "> not a real quote",
        "- list\\",
        "Alice **bold** posted:",
        "**quoted** @everyone",
        "https://forums.example/showthread.php?goto=post&postid=5#post5",
      ])
    // The bot's bold header and its two quote lines are the only markdown; the link shows without a preview.
    #expect(reading.unexpectedEffects(allowing: ["bold", "quote"]) == [])
    #expect(reading.effects.filter { if case .inline("bold", _) = $0 { true } else { false } }.count == 1)
    #expect(reading.effects.filter { $0 == .block("quote") }.count == 2)
    #expect(reading.effects.contains(.link("https://forums.example/showthread.php?goto=post&postid=5#post5")))
  }

  @Test func everyKindOfMessageRendersWithoutStrayMarkdown() {
    let post = Self.relay(title: "T_1", author: "a*b", body: [.paragraph([.text("x_y *z*")])])
    let messages: [ChatMessage] = [
      .post(post),
      .alert(PostAlert(reasons: ["keyword **x**"], post: post)),
      .summary(
        PostSummary(
          threadTitle: "T *1*", threadLink: "https://f.example/t", count: 3, authors: ["a_b", "c"], latestAuthor: "c",
          latestLink: "https://f.example/1", afterReplayCap: false)),
      .newThread(
        NewThreadNotice(forumName: "GBS", title: "New *thread*", author: "@everyone", link: "https://f.example/2")),
      .answer(CommandAnswer("Subscribed to **that** thread.")),
    ]
    for message in messages {
      let lines = DiscordRenderer().lines(message)
      let reading = FakeDiscordReading(lines.joined(separator: "\n"))
      #expect(reading.unexpectedEffects(allowing: ["bold", "quote"]) == [], "\(message)")
      #expect(!reading.text.isEmpty)
    }
  }

  @Test func aLongAnswerIsSplitAndNothingIsLost() {
    let answer = CommandAnswer(lines: (1...200).map { .item([.text("entry number \($0) with some words")]) })
    let messages = DiscordRenderer().messages(.answer(answer))
    #expect(messages.count > 1)
    #expect(messages.allSatisfy { DiscordMessageSplitter.length($0) <= 2_000 })
    let shown = messages.flatMap { FakeDiscordReading($0).text.split(separator: "\n").map(String.init) }
    #expect(shown == (1...200).map { "• entry number \($0) with some words" })
  }
}
