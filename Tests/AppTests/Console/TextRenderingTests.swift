import AwfulBotApp
import AwfulBotTestKit
import ChatBridge
import ChatRendering
import ForumModel
import Foundation
import Testing

@Suite("Text rendering: what the console and IRC's full style show")
struct TextRenderingTests {
  typealias Fixture = RenderingFixture

  @Test("a relayed post is its header (title, author, time), its excerpt and the link to its page")
  func postShape() {
    #expect(
      Fixture.lines([.text("Hello there.")]) == [
        "A Thread — Goon, 2023-11-14 22:13 UTC", "Hello there.", Fixture.link,
      ])
    var undated = Fixture.relay([.text("Hi")])
    undated.date = nil
    #expect(TextRendering.postLines(undated) == ["A Thread — Goon", "Hi", Fixture.link])
  }

  @Test("the console writes every line, continuation lines indented")
  func console() {
    let message = OutgoingMessage(.post(Fixture.relay([.text("Hello there.")])), threadKey: "3526065")
    #expect(
      ConsoleTransport.format(message, room: "console") == """
        [relay] A Thread — Goon, 2023-11-14 22:13 UTC
                Hello there.
                \(Fixture.link)
        """)
    let answer = OutgoingMessage(.answer(CommandAnswer("Bookmarked.")), inReplyTo: "x")
    #expect(ConsoleTransport.format(answer, room: "console") == "[reply] Bookmarked.")
  }

  @Test("an image is one readable token: [image] and its URL, no stray space before punctuation")
  func image() {
    let lines = Fixture.lines([
      .text("Look at this:"), .image(url: "https://i.imgur.com/cat.png"), .text(", and this"),
      .image(url: "https://i.imgur.com/dog.png"), .text("."),
    ])
    #expect(
      lines[1] == "Look at this: [image] https://i.imgur.com/cat.png, and this [image] https://i.imgur.com/dog.png.")
    #expect(
      Fixture.lines([.image(url: "https://i.imgur.com/cat.png"), .text("nice")])[1]
        == "[image] https://i.imgur.com/cat.png nice")
    #expect(
      Fixture.lines([.image(url: "https://i.imgur.com/cat.png"), .smilie(code: ":nws:", url: nil)])[1]
        == "[image] https://i.imgur.com/cat.png :nws:", "a smilie is not glued to the URL")
    #expect(
      Fixture.lines([.video(url: "https://www.youtube.com/watch?v=x"), .text("!")])[1]
        == "[video] https://www.youtube.com/watch?v=x!")
  }

  @Test("code is its own lines, indentation kept, never a quote")
  func code() {
    let lines = Fixture.lines([.text("Try this:"), .code("if x {\n    run()\n}"), .text("Works for me.")])
    #expect(
      lines == [
        "A Thread — Goon, 2023-11-14 22:13 UTC", "Try this:", "if x {", "    run()", "}", "Works for me.", Fixture.link,
      ])
    #expect(!lines.joined().contains("posted:"))
  }

  @Test("a spoiler is marked, its text never shown, the sentence around it intact")
  func spoiler() {
    let lines = Fixture.lines([.text("The killer is "), .spoiler([.text("the butler")]), .text(".")])
    #expect(lines[1] == "The killer is [spoiler].")
    #expect(!lines.joined().contains("butler"))
  }

  @Test("quote and answer are on separate lines, the quote under its author")
  func quoteAndAnswer() {
    let lines = Fixture.lines([
      .quote(author: "AgentF", postID: "411637955", [.text("what they said")]), .text("my answer"),
    ])
    #expect(
      lines == [
        "A Thread — Goon, 2023-11-14 22:13 UTC", "> AgentF posted:", "> what they said", "my answer", Fixture.link,
      ])
    // The scraper wraps a post's blocks in a paragraph: the same lines.
    let wrapped = Fixture.lines([
      .paragraph([.quote(author: "AgentF", postID: "411637955", [.text("what they said")]), .text("my answer")])
    ])
    #expect(wrapped == lines)
  }

  @Test("a post that quotes and then answers keeps the answer when cut; the quote is shortened")
  func quoteThenAnswerCut() {
    let lines = Fixture.lines(Fixture.quoteThenAnswer)
    #expect(lines.count == 5)
    #expect(lines[1] == "> Alice posted:")
    #expect(lines[2] == "> " + Array(repeating: "blah", count: 16).joined(separator: " ") + "…")
    #expect(lines[3] == "I disagree entirely.", "the answer is whole: no cut marker on it")
    #expect(lines[4] == Fixture.link)
  }

  @Test("a post that is only a quote says so")
  func onlyQuote() {
    let lines = Fixture.lines([.quote(author: "Alice", postID: "1", [.text("what she said")])])
    #expect(
      lines == [
        "A Thread — Goon, 2023-11-14 22:13 UTC", "> Alice posted:", "> what she said",
        "(only a quote, no words of their own)", Fixture.link,
      ])
  }

  @Test("a long post is cut with an ellipsis and ends with the link to the rest")
  func longPost() {
    let lines = Fixture.lines([.paragraph([.text(String(repeating: "word ", count: 400))])])
    #expect(lines.count == 3)
    #expect(lines[1].hasSuffix("word…"))
    #expect(lines[1].count <= 401)
    #expect(lines[2] == Fixture.link)
    #expect(
      Fixture.lines([.text("one two three four five six seven eight nine ten")], excerptLength: 20)[1]
        == "one two three four…")
  }

  @Test("room-wide mentions are defused in text, titles and author names; e-mail addresses stay")
  func mentions() {
    let text = Fixture.lines(
      [.text("@room @everyone @here hi @alice:example.org, mail a@b.com")], title: "@room party", author: "@here"
    ).joined(separator: "\n")
    for mention in ["@room", "@everyone", "@here", "@alice"] { #expect(!text.contains(mention)) }
    #expect(text.contains("a@b.com"))
    #expect(text.hasPrefix("@\u{2060}room party — @\u{2060}here, "))
  }

  @Test("control characters, bidi overrides and mIRC colour codes with their digits are removed")
  func controls() {
    let lines = Fixture.lines(
      [
        .text(
          "bell\u{07} esc\u{1B}[31m nul\u{00} rlo\u{202E}txt \u{85}end \u{03}04,12red\u{03} \u{03}3,x \u{02}bold\u{0F}")
      ],
      title: "T\u{0003}itle \u{03}12Blue")
    #expect(lines[0] == "Title Blue — Goon, 2023-11-14 22:13 UTC")
    #expect(lines[1] == "bell esc[31m nul rlotxt end red ,x bold")
    #expect(ChatText.stripControls("\u{04}FF0000,00FF00hex\u{04}C0FFEE colour") == "hex colour")
    #expect(ChatText.stripControls("a\u{03}\nb\u{03}9") == "a\nb")
  }

  @Test("summaries count posts and name each author once, linking the latest post")
  func summary() {
    let summary = PostSummary(
      threadTitle: "Busy @room", threadLink: "https://f.example/t", count: 12, authors: ["a", "b", "a", "c", "d", "e"],
      latestAuthor: "e", latestLink: "https://f.example/p99", afterReplayCap: false)
    #expect(
      TextRendering.lines(.summary(summary)) == [
        "12 new posts in “Busy @\u{2060}room” by a, b, c and 2 others (latest by e): https://f.example/p99"
      ])
    let one = PostSummary(
      threadTitle: "T", threadLink: "https://f.example/t", count: 1, authors: ["a"], latestAuthor: nil,
      latestLink: "https://f.example/t", afterReplayCap: false)
    #expect(TextRendering.summaryLine(one) == "1 new post in “T” by a (latest): https://f.example/t")
    let capped = PostSummary(
      threadTitle: "T", threadLink: "https://f.example/t", count: 37, authors: ["a"], latestAuthor: "z",
      latestLink: "https://f.example/p", afterReplayCap: true)
    #expect(TextRendering.summaryLine(capped) == "37 more new posts in “T”, latest by z: https://f.example/p")
  }

  @Test("an announcement shows its title (or says it has none), author, excerpt and link")
  func announcement() {
    let announcement = AnnouncementRelay(
      title: "Rules update", author: "Lowtax", date: nil,
      link: "https://forums.somethingawful.com/announcement.php?forumid=1", body: [.text("Be excellent @everyone")],
      excerptLength: 400)
    #expect(
      TextRendering.lines(.announcement(announcement)) == [
        "Announcement: Rules update — Lowtax", "Be excellent @\u{2060}everyone",
        "https://forums.somethingawful.com/announcement.php?forumid=1",
      ])
    var untitled = announcement
    untitled.title = nil
    #expect(TextRendering.lines(.announcement(untitled))[0] == "Announcement: Forum announcement — Lowtax")
  }

  @Test("new threads, alerts and digests")
  func otherRelays() {
    let notice = NewThreadNotice(forumName: "GBS", title: "New\nthread", author: "bob", link: "https://f.example/t")
    #expect(TextRendering.lines(.newThread(notice)) == ["New thread in GBS: New thread by bob: https://f.example/t"])
    let alert = PostAlert(reasons: ["alice was quoted"], post: Fixture.relay([.text("hi")]))
    #expect(
      TextRendering.lines(.alert(alert)) == [
        "Alert: alice was quoted", "A Thread — Goon, 2023-11-14 22:13 UTC", "hi", Fixture.link,
      ])
    let entries = (1...50).map {
      Digest.Entry(
        threadTitle: "Thread number \($0)", postCount: $0, authors: ["x", "y"], link: "https://f.example/\($0)")
    }
    let digest = TextRendering.lines(.digest(Digest(title: "Daily digest", entries: entries)))
    #expect(digest.count == 51, "a digest lists every thread")
    #expect(digest[1] == "• Thread number 1: 1 new post by x and y https://f.example/1")
    #expect(digest[50] == "• Thread number 50: 50 new posts by x and y https://f.example/50")
    #expect(TextRendering.lines(.digest(Digest(title: "Hourly", entries: []))) == ["Hourly", "Nothing new."])
  }

  @Test("answers: labels in place, URLs at the end of the line, list items and fields marked")
  func answers() {
    var answer = CommandAnswer()
    answer.add(.text("See "), .link(label: "thread", url: "https://f.example/t"), .text(" now"))
    answer.add(.link(label: "", url: "https://f.example/bare"))
    answer.add(item: [.bold("one"), .text(" "), .code("watch 1")])
    answer.add(field: "Transport", .text("connected"))
    #expect(
      TextRendering.lines(.answer(answer)) == [
        "See thread now https://f.example/t", "https://f.example/bare", "• one watch 1", "Transport: connected",
      ])
  }

  @Test("a post inside an answer shows its anatomy, indented under its author")
  func answerPost() {
    let answer = CommandAnswer(lines: [
      .sentence([.text("Latest in A Thread:")]),
      .post(Fixture.relay([.quote(author: "Alice", postID: "1", [.text("question?")]), .text("answer.")])),
    ])
    #expect(
      TextRendering.lines(.answer(answer)) == [
        "Latest in A Thread:", "• Goon, 2023-11-14 22:13 UTC:", "  > Alice posted:", "  > question?", "  answer.",
        "  " + Fixture.link,
      ])
  }

  @Test("answers are never cut: 30 items are 31 lines, on the console too")
  func longAnswer() {
    var answer = CommandAnswer("30 bookmarks, page 1 of 1:")
    for index in 1...30 { answer.add(item: [.link(label: "Thread \(index)", url: "https://f.example/\(index)")]) }
    #expect(answer.itemCount == 30)
    let lines = TextRendering.lines(.answer(answer))
    #expect(lines.count == 31)
    #expect(lines.last == "• Thread 30 https://f.example/30")
    let console = ConsoleTransport.format(OutgoingMessage(.answer(answer)), room: "console")
    #expect(console.split(separator: "\n").count == 31)
    #expect(console.hasSuffix("\n        • Thread 30 https://f.example/30"))
  }

  @Test("a row queued before typed messages shows as it was stored, controls stripped")
  func legacy() {
    #expect(
      TextRendering.lines(.legacy(text: "Title — alice\nbody\u{07}\nhttps://f.example/p", html: "<b>x</b>", link: nil))
        == ["Title — alice", "body", "https://f.example/p"])
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
