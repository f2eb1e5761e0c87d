import ChatBridge
import ForumModel
import Foundation
import Testing

@testable import IRCTransport

@Suite("IRC text: sanitising, splitting, rendering")
struct IRCRendererTests {
  static let link =
    "https://forums.somethingawful.com/showthread.php?threadid=3526065&perpage=40&pagenumber=1#post411639264"

  static func relay(
    _ body: [RichText], title: String = "A Thread", author: String = "Goon", excerptLength: Int = 400
  ) -> PostRelay {
    PostRelay(
      address: PostAddress(threadID: "3526065", postID: "411639264", index: 2), threadTitle: title, author: author,
      date: ChatDate(Date(timeIntervalSince1970: 1_700_000_000), timeZone: .gmt), link: link,
      threadLink: "https://forums.somethingawful.com/showthread.php?threadid=3526065&perpage=40", body: body,
      excerptLength: excerptLength)
  }

  /// The text a line may carry on a typical network: 512 bytes minus `:nick!~user@host NOTICE #channel :` and CR LF,
  /// with the longest host the client assumes before the server has shown it.
  static let budget = 512 - (1 + 8 + 1 + 9 + 1 + 63 + 1 + 6 + 1 + 9 + 2 + 2)

  static let compact = IRCRenderer()
  static let full = IRCRenderer(style: .full)

  /// Checks what every IRC line must be, whatever it holds: within the budget, one line (no CR, LF or NUL), no
  /// formatting codes or other controls unless the bot added them, and a valid IRC message with its prefix within
  /// 512 bytes.
  static func checkLines(_ lines: [String], budget: Int, formatting: Bool = false) throws {
    #expect(!lines.isEmpty)
    for line in lines {
      #expect(line.utf8.count <= budget, "\(line.utf8.count) bytes: \(line)")
      #expect(!line.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 })
      #expect(
        !line.unicodeScalars.contains {
          ($0.value < 0x20 || (0x7F...0x9F).contains($0.value))
            && !(formatting && [0x02, 0x03, 0x0F].contains($0.value))
        })
      #expect(!line.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || $0 == "\u{2028}" })
      #expect(!line.contains("\u{FFFD}"))
      guard budget <= Self.budget else { continue }
      let message = try IRCMessage(
        prefix: IRCPrefix(name: "awfulbot", user: "~awfulbot", host: String(repeating: "h", count: 63)),
        command: .notice, parameters: ["#channel", line])
      #expect(message.serialized.utf8.count + 2 <= 512)
    }
  }

  // MARK: Sanitising and splitting

  @Test("line breaks of every kind split lines; NUL and other controls vanish")
  func sanitiser() {
    let lines = IRCTextSanitizer.lines(
      "one\r\nQUIT :x\rtwo\u{0}\u{07}\u{1B}[31m\nthree\u{2028}four\u{85}five\u{202E}\t!")
    #expect(lines == ["one", "QUIT :x", "two[31m", "three", "four", "five !"])
    #expect(IRCTextSanitizer.singleLine("a\r\nb") == "a b")
  }

  @Test("mIRC formatting is stripped from what users type, colours with their digits")
  func stripFormatting() {
    #expect(IRCTextSanitizer.stripFormatting("\u{02}!help\u{02} \u{03}04,12red\u{03} \u{1D}it\u{0F}") == "!help red it")
    #expect(IRCTextSanitizer.stripFormatting("\u{03}3,x") == ",x")
  }

  @Test("pieces stay within the byte limit, never split a character, and concatenate back to the text")
  func splitter() {
    let text = String(repeating: "naïve 日本語テキスト 🎉👍🏽 ", count: 60)
    for limit in [16, 37, 100, 400] {
      let pieces = IRCLineSplitter.split(text, maxBytes: limit)
      #expect(pieces.allSatisfy { $0.utf8.count <= limit && !$0.isEmpty })
      #expect(pieces.joined() == text)
    }
  }

  @Test("a piece prefers to end after a space near its end")
  func wordBreaks() {
    let pieces = IRCLineSplitter.split("aaaa bbbb cccc dddd", maxBytes: 12)
    #expect(pieces == ["aaaa bbbb ", "cccc dddd"])
  }

  // MARK: Compact relays

  @Test("a compact relay is one line: [title] author: words link")
  func compactShape() throws {
    let lines = Self.compact.lines(for: .post(Self.relay([.text("Hello there.")])), maxBytesPerLine: Self.budget)
    #expect(lines == ["[A Thread] Goon: Hello there. \(Self.link)"])
    try Self.checkLines(lines, budget: Self.budget)
  }

  @Test("a compact reply names who it answers and keeps the answer, not the quote")
  func compactReply() {
    let body: [RichText] = [
      .quote(author: "Alice", postID: "1", [.text(String(repeating: "blah ", count: 100))]),
      .text("I disagree entirely."),
    ]
    #expect(
      Self.compact.lines(for: .post(Self.relay(body)), maxBytesPerLine: Self.budget) == [
        "[A Thread] Goon, replying to Alice: I disagree entirely. \(Self.link)"
      ])
    let two: [RichText] = [
      .quote(author: "Alice", postID: "1", [.text("a")]), .quote(author: "Bob", postID: "2", [.text("b")]),
      .text("Both wrong."),
    ]
    #expect(
      Self.compact.lines(for: .post(Self.relay(two)), maxBytesPerLine: Self.budget) == [
        "[A Thread] Goon, replying to Alice and Bob: Both wrong. \(Self.link)"
      ])
  }

  @Test("a compact relay of a post that is only a quote says whom it quotes, the quote in quotation marks")
  func compactOnlyQuote() {
    let body: [RichText] = [.quote(author: "Alice", postID: "1", [.text("what she said")])]
    #expect(
      Self.compact.lines(for: .post(Self.relay(body)), maxBytesPerLine: Self.budget) == [
        "[A Thread] Goon quoted Alice: “what she said” \(Self.link)"
      ])
  }

  @Test("images, spoilers and code in a compact relay")
  func compactContent() {
    let body: [RichText] = [
      .text("Look:"), .image(url: "https://i.imgur.com/cat.png"), .text(", the killer is "),
      .spoiler([.text("the butler")]), .text("."), .code("x = 1\ny = 2"),
    ]
    #expect(
      Self.compact.lines(for: .post(Self.relay(body)), maxBytesPerLine: Self.budget) == [
        "[A Thread] Goon: Look: [image] https://i.imgur.com/cat.png, the killer is [spoiler]. `x = 1 ⏎ y = 2` \(Self.link)"
      ])
  }

  @Test("a cut compact relay ends with … and the link")
  func compactCut() throws {
    let words = String(repeating: "word ", count: 200)
    let lines = Self.compact.lines(for: .post(Self.relay([.text(words)])), maxBytesPerLine: Self.budget)
    try Self.checkLines(lines, budget: Self.budget)
    #expect(lines.count == 1)
    #expect(lines[0].hasPrefix("[A Thread] Goon: word word"))
    #expect(lines[0].hasSuffix("word… \(Self.link)"))
  }

  @Test(
    "a compact relay fits one line within the budget even with a 300-character title and multi-byte text",
    arguments: [Self.budget, 200, 300])
  func compactLongTitle(budget: Int) throws {
    let titles = [String(repeating: "Long title ", count: 28), String(repeating: "日本語のスレッド🎉", count: 34)]
    let body: [RichText] = [
      .quote(author: "Alice", postID: "1", [.text("quoted")]),
      .text(String(repeating: "答えはこれです 👍🏽 naïve ", count: 60)),
    ]
    for title in titles {
      #expect(title.count >= 300)
      let lines = Self.compact.lines(for: .post(Self.relay(body, title: title)), maxBytesPerLine: budget)
      try Self.checkLines(lines, budget: budget)
      #expect(lines.count == 1)
      let line = lines[0]
      #expect(line.hasPrefix("[" + title.prefix(4)))
      #expect(line.contains("…] Goon, replying to Alice: 答えは"), "the title gives way, then the words: \(line)")
      #expect(line.hasSuffix("… \(Self.link)"))
      let thumbs = line.unicodeScalars.filter { $0 == "\u{1F44D}" }.count
      let tones = line.unicodeScalars.filter { $0 == "\u{1F3FD}" }.count
      #expect(thumbs == tones, "an emoji and its skin tone stay together")
    }
  }

  @Test("a compact relay with a short title shortens only the words")
  func compactShortensWords() throws {
    let body: [RichText] = [.text(String(repeating: "答えはこれです ", count: 100))]
    let lines = Self.compact.lines(for: .post(Self.relay(body)), maxBytesPerLine: 200)
    try Self.checkLines(lines, budget: 200)
    #expect(lines[0].hasPrefix("[A Thread] Goon: 答えはこれです"))
    #expect(lines[0].hasSuffix("… \(Self.link)"))
  }

  @Test("titles are bold (and coloured) only when configured; forum text brings no codes of its own")
  func formatting() throws {
    let post = ChatMessage.post(
      Self.relay([.text("\u{03}04,12red\u{03} alert \u{02}now")], title: "Thread \u{02}title"))
    #expect(
      Self.compact.lines(for: post, maxBytesPerLine: Self.budget) == ["[Thread title] Goon: red alert now \(Self.link)"]
    )
    let bold = IRCRenderer(mircFormatting: true, titleColour: 4)
    let lines = bold.lines(for: post, maxBytesPerLine: Self.budget)
    #expect(lines == ["[\u{02}\u{03}04Thread title\u{0F}] Goon: red alert now \(Self.link)"])
    try Self.checkLines(lines, budget: Self.budget, formatting: true)
    let fullBold = IRCRenderer(style: .full, mircFormatting: true)
    #expect(
      fullBold.lines(for: post, maxBytesPerLine: Self.budget)[0]
        == "\u{02}Thread title\u{0F} — Goon, 2023-11-14 22:13 UTC")
    let answer = ChatMessage.answer(CommandAnswer("Reply — not a title"))
    #expect(
      IRCRenderer(mircFormatting: true).lines(for: answer, maxBytesPerLine: Self.budget) == ["Reply — not a title"])
  }

  @Test("mIRC colour codes in forum text are removed with their digits in every style")
  func colourDigits() {
    let post = ChatMessage.post(Self.relay([.text("\u{03}4,12red\u{03}12 blue \u{03}7orange")], title: "\u{03}03Green"))
    #expect(
      Self.compact.lines(for: post, maxBytesPerLine: Self.budget) == ["[Green] Goon: red blue orange \(Self.link)"])
    #expect(
      Self.full.lines(for: post, maxBytesPerLine: Self.budget) == [
        "Green — Goon, 2023-11-14 22:13 UTC", "red blue orange", Self.link,
      ])
  }

  // MARK: Full relays

  @Test("a full relay is the header, the excerpt's lines and the link; quote and answer on their own lines")
  func fullShape() throws {
    let body: [RichText] = [
      .quote(author: "AgentF", postID: "1", [.text("what they said")]), .text("my answer"),
    ]
    let lines = IRCRenderer(style: .full, maxRelayLines: 10).lines(
      for: .post(Self.relay(body)), maxBytesPerLine: Self.budget)
    #expect(
      lines == [
        "A Thread — Goon, 2023-11-14 22:13 UTC", "> AgentF posted:", "> what they said", "my answer", Self.link,
      ])
    try Self.checkLines(lines, budget: Self.budget)
  }

  @Test("code in a full relay is its lines, indentation kept; a spoiler is marked; an image is one token")
  func fullContent() {
    let body: [RichText] = [
      .text("Try:"), .code("if x {\n    run()\n}"), .text("Spoiler: "), .spoiler([.text("x")]), .text("!"),
      .image(url: "https://i.example/a.png"),
    ]
    #expect(
      IRCRenderer(style: .full, maxRelayLines: 10).lines(for: .post(Self.relay(body)), maxBytesPerLine: Self.budget)
        == [
          "A Thread — Goon, 2023-11-14 22:13 UTC", "Try:", "if x {", "    run()", "}",
          "Spoiler: [spoiler]! [image] https://i.example/a.png", Self.link,
        ])
  }

  @Test("a full relay too long for its lines is cut: it ends with … and the link")
  func fullCut() throws {
    let body = String(repeating: "word ", count: 200)
    let lines = Self.full.lines(for: .post(Self.relay([.text(body)])), maxBytesPerLine: 120)
    try Self.checkLines(lines, budget: 120)
    #expect(lines.count == 4)
    #expect(lines[0] == "A Thread — Goon, 2023-11-14 22:13 UTC")
    #expect(lines[2].hasSuffix("word…"))
    #expect(!lines.joined().contains("  "))
    #expect(lines[3] == Self.link)
  }

  @Test("a full relay whose cut falls between lines marks the last line kept")
  func fullCutBetweenLines() {
    let body: [RichText] = (1...8).map { .paragraph([.text("line \($0)")]) }
    let lines = Self.full.lines(for: .post(Self.relay(body)), maxBytesPerLine: Self.budget)
    #expect(lines == ["A Thread — Goon, 2023-11-14 22:13 UTC", "line 1", "line 2 …", Self.link])
  }

  @Test("a post that quotes then answers keeps the answer in the full style too")
  func fullQuoteThenAnswer() {
    let body: [RichText] = [
      .quote(author: "Alice", postID: "1", [.text(String(repeating: "blah ", count: 100))]),
      .text("I disagree entirely."),
    ]
    let lines = IRCRenderer(style: .full, maxRelayLines: 5).lines(
      for: .post(Self.relay(body)), maxBytesPerLine: Self.budget)
    #expect(lines.count == 5)
    #expect(lines[1] == "> Alice posted:")
    #expect(lines[2].hasSuffix("blah…"))
    #expect(lines[3] == "I disagree entirely.")
    #expect(lines[4] == Self.link)
  }

  @Test("a row queued before typed messages is laid out from its stored text and link")
  func legacy() {
    let link = "https://f.example/p"
    let message = ChatMessage.legacy(text: "Title — alice\nbody\r\nQUIT :x\n\(link)", html: nil, link: link)
    #expect(Self.full.lines(for: message, maxBytesPerLine: Self.budget) == ["Title — alice", "body", "QUIT :x", link])
    #expect(Self.compact.lines(for: message, maxBytesPerLine: Self.budget).last == link)
  }

  // MARK: Everything else

  @Test("summaries, new threads, announcements and digests")
  func otherRelays() throws {
    let summary = PostSummary(
      threadTitle: "Busy", threadLink: "https://f.example/t", count: 3, authors: ["a", "b"], latestAuthor: "b",
      latestLink: "https://f.example/p", afterReplayCap: false)
    #expect(
      Self.compact.lines(for: .summary(summary), maxBytesPerLine: Self.budget) == [
        "3 new posts in “Busy” by a and b (latest by b): https://f.example/p"
      ])
    let notice = NewThreadNotice(forumName: "GBS", title: "Hi\r\nQUIT", author: nil, link: "https://f.example/n")
    #expect(
      Self.compact.lines(for: .newThread(notice), maxBytesPerLine: Self.budget) == [
        "New thread in GBS: Hi QUIT: https://f.example/n"
      ])
    let announcement = AnnouncementRelay(
      title: nil, author: "Lowtax", date: nil, link: "https://f.example/a", body: [.text("Be nice.")],
      excerptLength: 400)
    #expect(
      Self.compact.lines(for: .announcement(announcement), maxBytesPerLine: Self.budget) == [
        "Announcement [Forum announcement] Lowtax: Be nice. https://f.example/a"
      ])
    let entries = (1...12).map {
      Digest.Entry(threadTitle: "T\($0)", postCount: 1, authors: ["x"], link: "https://f.example/\($0)")
    }
    let digest = Self.compact.lines(
      for: .digest(Digest(title: "Digest", entries: entries)), maxBytesPerLine: Self.budget)
    #expect(digest.count == 13, "a digest is never cut")
    #expect(digest[12] == "• T12: 1 new post by x https://f.example/12")
  }

  @Test("answers are never cut: 30 items are 31 lines, in either style")
  func longAnswer() throws {
    var answer = CommandAnswer("30 bookmarks, page 1 of 1:")
    for index in 1...30 { answer.add(item: [.link(label: "Thread \(index)", url: "https://f.example/\(index)")]) }
    for renderer in [Self.compact, Self.full] {
      let lines = renderer.lines(for: .answer(answer), maxBytesPerLine: Self.budget)
      #expect(lines.count == 31)
      #expect(lines[0] == "30 bookmarks, page 1 of 1:")
      #expect(lines[30] == "• Thread 30 https://f.example/30")
      #expect(!lines.contains { $0.contains("…") })
      try Self.checkLines(lines, budget: Self.budget)
    }
  }

  @Test("an answer line longer than IRC allows goes out over several lines, nothing lost")
  func longAnswerLine() throws {
    let text = String(repeating: "naïve 日本語テキスト 🎉👍🏽 ", count: 40)
    let lines = Self.compact.lines(for: .answer(CommandAnswer(text)), maxBytesPerLine: Self.budget)
    try Self.checkLines(lines, budget: Self.budget)
    #expect(lines.count > 1)
    #expect(lines.joined() == text.trimmingCharacters(in: .whitespaces))
  }

  @Test(
    "hostile text anywhere never yields a line with CR, LF or NUL, nor an over-long one", arguments: [60, 200, 400])
  func hostile(budget: Int) throws {
    let evil = "x\r\nQUIT :bye\u{0}\rPRIVMSG #c :hi\u{2028}\u{85}\u{03}04\u{202E}"
    let post = PostRelay(
      address: PostAddress(threadID: "1", postID: "2", index: 3), threadTitle: evil, author: evil,
      date: ChatDate(Date(timeIntervalSince1970: 1_700_000_000), timeZone: TimeZone(identifier: evil) ?? .gmt),
      link: "https://f.example/p?\(evil)", threadLink: "https://f.example/t",
      body: [
        .text(evil), .quote(author: evil, postID: evil, [.text(evil)]), .code(evil), .link(url: evil, [.text(evil)]),
      ], excerptLength: 400)
    var answer = CommandAnswer(evil)
    answer.add(item: [.text(evil), .link(label: evil, url: evil), .code(evil)])
    answer.add(field: evil, .bold(evil))
    answer.lines.append(.post(post))
    let messages: [ChatMessage] = [
      .post(post), .alert(PostAlert(reasons: [evil], post: post)), .answer(answer),
      .summary(
        PostSummary(
          threadTitle: evil, threadLink: evil, count: 2, authors: [evil], latestAuthor: evil, latestLink: evil,
          afterReplayCap: false)),
      .newThread(NewThreadNotice(forumName: evil, title: evil, author: evil, link: evil)),
      .announcement(
        AnnouncementRelay(
          title: evil, author: evil,
          date: ChatDate(Date(timeIntervalSince1970: 1_700_000_000), timeZone: TimeZone(identifier: evil) ?? .gmt),
          link: evil, body: [.text(evil)], excerptLength: 40)
      ),
      .digest(Digest(title: evil, entries: [.init(threadTitle: evil, postCount: 1, authors: [evil], link: evil)])),
      .legacy(text: evil, html: evil, link: evil),
    ]
    for renderer in [Self.compact, Self.full, IRCRenderer(mircFormatting: true, titleColour: 12)] {
      for message in messages {
        try Self.checkLines(
          renderer.lines(for: message, maxBytesPerLine: budget), budget: budget, formatting: renderer.mircFormatting)
      }
    }
  }

  // MARK: Permissions, server support, configuration

  @Test("masks match with wildcards and case mapping; accounts are exact")
  func permissions() {
    let permissions = IRCPermissions(admins: ["root", "*!*@admin.example"], members: ["*!~fan@*.net"])
    let someone = IRCPrefix(name: "Zed", user: "z", host: "elsewhere.org")
    #expect(permissions.role(account: "ROOT", source: someone, channelModes: []) == .admin)
    #expect(
      permissions.role(account: nil, source: IRCPrefix(name: "x", user: "y", host: "ADMIN.example"), channelModes: [])
        == .admin)
    #expect(
      permissions.role(account: nil, source: IRCPrefix(name: "f", user: "~fan", host: "a.b.net"), channelModes: [])
        == .member)
    #expect(permissions.role(account: "rooty", source: someone, channelModes: []) == nil)
  }

  @Test("ISUPPORT PREFIX and CHANMODES are read")
  func serverSupport() {
    var support = IRCServerSupport()
    support.apply(tokens: ["PREFIX=(qaohv)~&@%+", "CHANMODES=beI,kL,lj,imnpst", "NETWORK=x"])
    #expect(support.mode(forSymbol: "~") == "q")
    #expect(support.isMemberMode("h"))
    #expect(support.alwaysParameter == ["b", "e", "I", "k", "L"])
    #expect(support.parameterWhenSet == ["l", "j"])
  }

  @Test("configuration decodes with defaults and reports every problem")
  func configuration() throws {
    let json =
      ##"{"server":"irc.example:6697","nick":"awfulbot","channels":[{"name":"#a","key":"k"}],"sasl":{"account":"a","password":"p"}}"##
    let decoded = try JSONDecoder().decode(IRCTransportConfiguration.self, from: Data(json.utf8))
    #expect(decoded.port == 6697 && decoded.tls && decoded.linesPerMessage == 4 && decoded.floodBurst == 5)
    #expect(decoded.relayAs == .notice && decoded.relayStyle == .compact && decoded.sasl?.mechanism == .plain)
    try decoded.validate()
    #expect(!decoded.description.contains("p\""), "secrets stay out of descriptions")
    var bad = decoded
    bad.nick = "1bad"
    bad.channels = [.init(name: "nochannel")]
    bad.sasl = .init(mechanism: .external)
    #expect(throws: IRCConfigurationError.self) { try bad.validate() }
    do {
      try bad.validate()
    } catch {
      #expect(error.problems.count >= 3)
    }
  }
}

@Suite("IRC text: Leper's Colony entries")
struct IRCPunishmentRenderingTests {
  @Test("an entry is one line when it fits, split between words (never cut) when it does not; no line breaks")
  func lines() {
    let relay = PunishmentRelay(
      sentence: "probation", probationLength: "1 week", user: "Horrible Jerk", moderator: "Ralp",
      reason: [.text("@room " + String(repeating: "long reason ", count: 60))],
      date: ChatDate(Date(timeIntervalSince1970: 1_384_099_800), timeZone: .gmt),
      link: "https://forums.example.com/showthread.php?goto=post&postid=7#post7", linksPost: true, excerptLength: 400)
    let lines = IRCRenderer().lines(for: .punishment(relay), maxBytesPerLine: 400)
    #expect(lines.count == 2)
    #expect(
      lines[0].hasPrefix("PROBATION (1 week): Horrible Jerk, by Ralp on 2013-11-10 16:10 UTC: @\u{2060}room long"))
    #expect(lines.last?.hasSuffix("https://forums.example.com/showthread.php?goto=post&postid=7#post7") == true)
    #expect(lines.allSatisfy { $0.utf8.count <= 400 && !$0.contains("\n") })
    let summary = IRCRenderer().lines(
      for: .punishments(PunishmentSummary(count: 1, users: ["a"], link: "https://forums.example.com/banlist.php")),
      maxBytesPerLine: 400)
    #expect(summary == ["1 more Leper's Colony entry, for a: https://forums.example.com/banlist.php"])
  }
}
