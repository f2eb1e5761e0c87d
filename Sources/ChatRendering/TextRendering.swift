import ChatBridge
import ForumModel
import Foundation

/// The plain-text form of every message, line by line: what the console shows and what IRC's full relay style
/// sends. Everything from the forum goes through `ChatText` here (controls stripped, mentions defused). Nothing is
/// cut except a post's body, which is an excerpt by design and ends with the link to the rest.
package enum TextRendering {
  /// The lines of `message`, complete.
  package static func lines(_ message: ChatMessage) -> [String] {
    switch message {
    case .post(let post): postLines(post)
    case .alert(let alert):
      ["Alert: " + ChatText.safeLine(alert.reasons.joined(separator: ", "))] + postLines(alert.post)
    case .summary(let summary): [summaryLine(summary)]
    case .announcement(let announcement): announcementLines(announcement)
    case .newThread(let notice): [newThreadLine(notice)]
    case .digest(let digest): digestLines(digest)
    case .answer(let answer): answerLines(answer)
    case .privateMessage(let alert): privateMessageLines(alert)
    case .legacy(let text, _, _): ChatText.stripControls(text).components(separatedBy: "\n")
    case .punishment(let relay): [punishmentLine(relay)]
    case .punishments(let summary): [punishmentSummaryLine(summary)]
    }
  }

  // MARK: Posts

  /// "Title — author, date", the excerpt's lines, the link.
  package static func postLines(_ post: PostRelay) -> [String] {
    [postHeader(post)] + excerptLines(post.body, maxCharacters: post.excerptLength) + [post.link]
  }

  /// "Title — author, date".
  package static func postHeader(_ post: PostRelay) -> String {
    [ChatText.safeLine(post.threadTitle), "—", byline(post.author, post.date)].joined(separator: " ")
  }

  /// "author, date".
  package static func byline(_ author: String, _ date: ChatDate?) -> String {
    ChatText.safeLine(author) + (date.map { ", \($0.text)" } ?? "")
  }

  /// A body cut to about `maxCharacters`, one string per line (quotes as "> " lines under "X posted:", code lines
  /// with their indentation); a cut ends with "…" where it happened (a shortened quote ends its own last line with
  /// it, the answer after it stays whole), and a post of quotes alone says so on its last line.
  package static func excerptLines(_ body: [RichText], maxCharacters: Int) -> [String] {
    excerptSections(body, maxCharacters: maxCharacters).flatMap(\.lines)
  }

  /// A part of an excerpt: one quote (its "X posted:" line and its "> " lines) or a run of the poster's own words.
  package struct ExcerptSection: Sendable, Hashable {
    /// The quoted poster's name for a quote that names one.
    package var quoteAuthor: String?
    package var isQuote: Bool
    package var lines: [String]

    package init(quoteAuthor: String?, isQuote: Bool, lines: [String]) {
      self.quoteAuthor = quoteAuthor
      self.isQuote = isQuote
      self.lines = lines
    }
  }

  /// `excerptLines`, in sections: each quote apart from the poster's own words, so a renderer short of lines can
  /// shorten quotes before the words. Joined, the sections' lines are `excerptLines`.
  package static func excerptSections(_ body: [RichText], maxCharacters: Int) -> [ExcerptSection] {
    let excerpt = PostExcerpt(body, maxCharacters: maxCharacters)
    var sections: [ExcerptSection] = []
    var ownWords: [RichText] = []
    func render(_ nodes: [RichText]) -> [String] {
      ChatText.safe(plainText(nodes, spoilers: .hidden))
        .split(separator: "\n", omittingEmptySubsequences: true)
        .map { trimmingTrailingWhitespace(String($0)) }
        .filter { !$0.allSatisfy(\.isWhitespace) && $0 != ">" }
    }
    func flushOwnWords() {
      let lines = render(ownWords)
      if !lines.isEmpty { sections.append(ExcerptSection(quoteAuthor: nil, isQuote: false, lines: lines)) }
      ownWords = []
    }
    for node in excerpt.nodes {
      guard case .quote(let author, _, _) = node else {
        ownWords.append(node)
        continue
      }
      flushOwnWords()
      let lines = render([node])
      if !lines.isEmpty {
        let name = author.map(ChatText.safeLine).flatMap { $0.isEmpty ? nil : $0 }
        sections.append(ExcerptSection(quoteAuthor: name, isQuote: true, lines: lines))
      }
    }
    flushOwnWords()
    let endsCut = excerpt.onlyQuotes ? excerpt.wasCut : excerpt.ownWordsWereCut
    if endsCut, let last = sections.last?.lines.last, !last.hasSuffix("…") {
      sections[sections.count - 1].lines[sections[sections.count - 1].lines.count - 1] = last + " …"
    }
    if excerpt.onlyQuotes && !sections.isEmpty {
      sections.append(
        ExcerptSection(quoteAuthor: nil, isQuote: false, lines: ["(only a quote, no words of their own)"]))
    }
    return sections
  }

  /// The poster's own words on one line (quotes left out) for one-line forms, with who they quote.
  package static func oneLineExcerpt(_ body: [RichText], maxCharacters: Int) -> (quoted: [String], text: String) {
    let anatomy = PostAnatomy(body)
    var quoted: [String] = []
    for piece in anatomy.pieces {
      if case .quote(let author, _, _) = piece, let author, !quoted.contains(author) {
        quoted.append(ChatText.safeLine(author))
      }
    }
    if anatomy.isOnlyQuotes {
      let excerpt = PostExcerpt(body, maxCharacters: maxCharacters)
      let text = oneLine(plainText(excerpt.nodes.flatMap(quoteContents).map(codeOnOneLine), spoilers: .hidden))
      return (quoted, text.isEmpty ? "" : "“\(text)\(excerpt.wasCut ? "…" : "")”")
    }
    let excerpt = PostExcerpt(anatomy.ownWords, maxCharacters: maxCharacters)
    var text = oneLine(plainText(excerpt.nodes.map(codeOnOneLine), spoilers: .hidden))
    if excerpt.wasCut && !text.hasSuffix("…") { text += "…" }
    return (quoted, text)
  }

  /// Code folded onto one line stays recognisable as code, apart from the words around it:
  /// `` `let x = 1 ⏎ print(x)` `` (its lines joined with ⏎, indentation dropped).
  private static func codeOnOneLine(_ node: RichText) -> RichText {
    switch node {
    case .code(let code):
      let lines = code.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }
      return lines.isEmpty ? .text("") : .paragraph([.text("`" + lines.joined(separator: " ⏎ ") + "`")])
    case .paragraph(let children): return .paragraph(children.map(codeOnOneLine))
    case .bold(let children): return .bold(children.map(codeOnOneLine))
    case .italic(let children): return .italic(children.map(codeOnOneLine))
    case .underline(let children): return .underline(children.map(codeOnOneLine))
    case .strike(let children): return .strike(children.map(codeOnOneLine))
    case .spoiler(let children): return .spoiler(children.map(codeOnOneLine))
    case .link(let url, let children): return .link(url: url, children.map(codeOnOneLine))
    case .quote(let author, let postID, let children):
      return .quote(author: author, postID: postID, children.map(codeOnOneLine))
    case .list(let items): return .list(items.map { $0.map(codeOnOneLine) })
    case .text, .lineBreak, .image, .thumbnail, .smilie, .video, .attachment: return node
    }
  }

  /// Only trailing whitespace goes: the plain-text writer starts no line with a space except code, whose
  /// indentation is part of it.
  private static func trimmingTrailingWhitespace(_ line: String) -> String {
    var line = Substring(line)
    while line.last?.isWhitespace == true { line.removeLast() }
    return String(line)
  }

  private static func quoteContents(_ node: RichText) -> [RichText] {
    if case .quote(_, _, let children) = node { return children }
    return [node]
  }

  /// Text folded onto one line, made safe.
  package static func oneLine(_ text: String) -> String {
    ChatText.safe(text).split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }.joined(separator: " ")
  }

  // MARK: Other relays

  /// "3 new posts in “T” by A, B and C (latest by C): link", or after a replay cap "37 more new posts in “T”,
  /// latest by X: link".
  package static func summaryLine(_ summary: PostSummary) -> String {
    let title = ChatText.safeLine(summary.threadTitle)
    if summary.afterReplayCap {
      let latest = summary.latestAuthor.map { ", latest by \(ChatText.safeLine($0))" } ?? ""
      return "\(NameList.count(summary.count, "more new post")) in “\(title)”\(latest): \(summary.latestLink)"
    }
    let names = NameList.format(summary.authors)
    let byline = names.isEmpty ? "" : " by \(names)"
    let latest = summary.latestAuthor.map { "latest by \(ChatText.safeLine($0))" } ?? "latest"
    return "\(NameList.count(summary.count, "new post")) in “\(title)”\(byline) (\(latest)): \(summary.latestLink)"
  }

  package static func announcementTitle(_ announcement: AnnouncementRelay) -> String {
    ChatText.safeLine(announcement.title ?? "Forum announcement")
  }

  package static func announcementLines(_ announcement: AnnouncementRelay) -> [String] {
    let header =
      "Announcement: \(announcementTitle(announcement)) — "
      + byline(announcement.author, announcement.date)
    return [header] + excerptLines(announcement.body, maxCharacters: announcement.excerptLength) + [announcement.link]
  }

  /// "Private message “Subject” from Alice, date", the excerpt's lines when excerpts are on, the link.
  package static func privateMessageLines(_ alert: PrivateMessageAlert) -> [String] {
    let sender = alert.sender.map { " from \(byline($0, alert.date))" } ?? (alert.date.map { ", \($0.text)" } ?? "")
    let header = "Private message “\(privateMessageSubject(alert))”\(sender)"
    let excerpt = alert.body.map { excerptLines($0, maxCharacters: alert.excerptLength) } ?? []
    return [header] + excerpt + [alert.link]
  }

  /// The subject, or "(no subject)".
  package static func privateMessageSubject(_ alert: PrivateMessageAlert) -> String {
    let subject = ChatText.safeLine(alert.subject)
    return subject.isEmpty ? "(no subject)" : subject
  }

  package static func newThreadLine(_ notice: NewThreadNotice) -> String {
    let forum = notice.forumName.map { " in \(ChatText.safeLine($0))" } ?? ""
    let author = notice.author.map { " by \(ChatText.safeLine($0))" } ?? ""
    return "New thread\(forum): \(ChatText.safeLine(notice.title))\(author): \(notice.link)"
  }

  package static func digestLines(_ digest: Digest) -> [String] {
    var lines = [ChatText.safeLine(digest.title)]
    if digest.entries.isEmpty { lines.append("Nothing new.") }
    for entry in digest.entries {
      lines.append("• \(ChatText.safeLine(entry.threadTitle)): \(digestDetail(entry)) \(entry.link)")
    }
    return lines
  }

  /// "3 new posts by A and B"; for the Leper's Colony "2 new entries, for A and B".
  package static func digestDetail(_ entry: Digest.Entry) -> String {
    let names = NameList.format(entry.authors)
    if entry.subject == .lepersColony {
      return NameList.count(entry.postCount, "new entry", plural: "new entries")
        + (names.isEmpty ? "" : ", for \(names)")
    }
    return NameList.count(entry.postCount, "new post") + (names.isEmpty ? "" : " by \(names)")
  }

  // MARK: Answers

  package static func answerLines(_ answer: CommandAnswer) -> [String] {
    answer.lines.flatMap { line -> [String] in
      switch line {
      case .sentence(let parts): [partsLine(parts)]
      case .item(let parts): ["• " + partsLine(parts)]
      case .field(let name, let parts): ["\(ChatText.safeLine(name)): " + partsLine(parts)]
      case .post(let post):
        ["• " + byline(post.author, post.date) + ":"]
          + excerptLines(post.body, maxCharacters: post.excerptLength).map { "  " + $0 } + ["  " + post.link]
      case .quote(let lines): lines.map { "> " + ChatText.safeLine($0, keepingEdges: true) }
      case .excerpt(let body, let limit):
        (excerptLines(body, maxCharacters: limit).nilIfEmpty ?? ["(no text)"]).map { "> " + $0 }
      }
    }
  }

  /// One line of parts: labels in place, their URLs at the end of the line (a URL mid-sentence is hard to read).
  package static func partsLine(_ parts: [CommandAnswer.Part]) -> String {
    var text = ""
    var trailingURLs: [String] = []
    for part in parts {
      switch part {
      case .text(let value), .bold(let value), .code(let value): text += ChatText.safeLine(value, keepingEdges: true)
      case .date(let date): text += date.text
      case .link(let label, let url) where label.isEmpty: text += url
      case .link(let label, let url):
        text += ChatText.safeLine(label, keepingEdges: true)
        trailingURLs.append(url)
      }
    }
    return ([text.trimmingCharacters(in: .whitespaces)] + trailingURLs).joined(separator: " ")
  }
}

extension Array {
  fileprivate var nilIfEmpty: Self? { isEmpty ? nil : self }
}
