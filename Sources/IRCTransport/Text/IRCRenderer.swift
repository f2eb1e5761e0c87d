import ChatBridge
import ChatRendering
import ForumModel

/// Renders a typed message as the texts of IRC lines, at send time, within a byte budget per line.
///
/// Relays are compact by default: one line per post, `[thread] author: own words… link`, quotes named rather
/// than repeated ("replying to Alice"), so a busy thread reads like a channel and sends at one line per post. The
/// `full` style sends the header, the excerpt's lines and the link, at most `maxRelayLines` lines (a cut ends with
/// "…" and the link, which leads to the rest). Command answers are never cut: every line goes out, split between
/// words where a line is too long for IRC, paced by the flood control.
package struct IRCRenderer: Sendable, Hashable {
  package enum RelayStyle: String, Sendable, Hashable, Codable, CaseIterable {
    /// One line per post.
    case compact
    /// Header, excerpt lines and link (at most `maxRelayLines`).
    case full
  }

  package var style: RelayStyle
  package var maxRelayLines: Int
  package var mircFormatting: Bool
  package var titleColour: Int?

  package static let ellipsis = "…"

  package init(
    style: RelayStyle = .compact, maxRelayLines: Int = 4, mircFormatting: Bool = false, titleColour: Int? = nil
  ) {
    self.style = style
    self.maxRelayLines = max(maxRelayLines, 2)
    self.mircFormatting = mircFormatting
    self.titleColour = titleColour
  }

  /// The texts of the lines to send for `message` when each may hold `maxBytesPerLine` bytes. A relay that can be
  /// answered by reference starts with it (`r7 [Thread] Alice: …`), so a reader can type `!re r7 …`.
  package func lines(for message: ChatMessage, maxBytesPerLine: Int, reference: String? = nil) -> [String] {
    guard let reference else { return messageLines(message, maxBytesPerLine: maxBytesPerLine) }
    let prefix = IRCTextSanitizer.singleLine(reference) + " "
    var lines = messageLines(message, maxBytesPerLine: maxBytesPerLine - prefix.utf8.count)
    if !lines.isEmpty { lines[0] = prefix + lines[0] }
    return lines
  }

  /// The one line a channel that asked for edit notices gets when a relayed post was edited on the forum:
  /// `[title] author edited their post: link`. Nothing for any other message (only relays are edited).
  package func editLines(for message: ChatMessage, maxBytesPerLine: Int) -> [String] {
    let post: PostRelay
    switch message {
    case .post(let relay): post = relay
    case .alert(let alert): post = alert.post
    default: return []
    }
    return [
      compactLine(
        prefix: "", title: clean(post.threadTitle), who: clean(post.author) + " edited their post:", words: "",
        link: post.link, budget: max(maxBytesPerLine, 32))
    ]
  }

  private func messageLines(_ message: ChatMessage, maxBytesPerLine: Int) -> [String] {
    let budget = max(maxBytesPerLine, 32)
    switch message {
    case .post(let post):
      if style == .compact { return [compactPost(post, prefix: "", budget: budget)] }
      return fullPost(post, budget: budget)
    case .alert(let alert):
      let reasons = clean(alert.reasons.joined(separator: ", "))
      if style == .compact { return [compactPost(alert.post, prefix: "Alert (\(reasons)): ", budget: budget)] }
      return fullPost(alert.post, before: ["Alert: \(reasons)"], budget: budget)
    case .announcement(let announcement):
      if style == .compact { return [compactAnnouncement(announcement, budget: budget)] }
      return fullRelay(TextRendering.announcementLines(announcement), budget: budget)
    case .summary(let summary):
      return split([TextRendering.summaryLine(summary)], budget: budget)
    case .newThread(let notice):
      return split([TextRendering.newThreadLine(notice)], budget: budget)
    case .digest(let digest):
      return split(TextRendering.digestLines(digest), budget: budget)
    case .answer(let answer):
      return split(TextRendering.answerLines(answer), budget: budget)
    case .privateMessage(let alert):
      if style == .compact { return [compactPrivateMessage(alert, budget: budget)] }
      return fullRelay(TextRendering.privateMessageLines(alert), budget: budget)
    case .legacy(let text, _, let link):
      return fullRelay(IRCTextSanitizer.lines(text), budget: budget, link: link)
    case .punishment(let relay):
      return split([TextRendering.punishmentLine(relay)], budget: budget)
    case .punishments(let summary):
      return split([TextRendering.punishmentSummaryLine(summary)], budget: budget)
    }
  }

  // MARK: Compact

  /// `[title] author, replying to X: words… link`, cut to one line: the excerpt gives way first, then the title.
  private func compactPost(_ post: PostRelay, prefix: String, budget: Int) -> String {
    let (quoted, words) = TextRendering.oneLineExcerpt(post.body, maxCharacters: post.excerptLength)
    var who = clean(post.author)
    if !quoted.isEmpty {
      let names = NameList.format(quoted)
      who += words.hasPrefix("“") ? " quoted \(names)" : ", replying to \(names)"
    }
    return compactLine(
      prefix: clean(prefix), title: clean(post.threadTitle), who: who, words: clean(words), link: post.link,
      budget: budget)
  }

  private func compactAnnouncement(_ announcement: AnnouncementRelay, budget: Int) -> String {
    let (_, words) = TextRendering.oneLineExcerpt(announcement.body, maxCharacters: announcement.excerptLength)
    return compactLine(
      prefix: "Announcement ", title: clean(TextRendering.announcementTitle(announcement)),
      who: clean(announcement.author), words: clean(words), link: announcement.link, budget: budget)
  }

  /// `Private message [Subject] Alice: words… link` (no words unless excerpts are on).
  private func compactPrivateMessage(_ alert: PrivateMessageAlert, budget: Int) -> String {
    let words = alert.body.map { TextRendering.oneLineExcerpt($0, maxCharacters: alert.excerptLength).text } ?? ""
    return compactLine(
      prefix: "Private message ", title: clean(TextRendering.privateMessageSubject(alert)),
      who: "from " + clean(alert.sender ?? "an unknown sender"), words: clean(words), link: alert.link, budget: budget)
  }

  private func compactLine(prefix: String, title: String, who: String, words: String, link: String, budget: Int)
    -> String
  {
    let link = IRCTextSanitizer.singleLine(link)
    func assemble(_ title: String, _ words: String) -> String {
      let saying = words.isEmpty ? "" : ": \(words)"
      return "\(prefix)[\(self.title(title))] \(who)\(saying) \(link)"
    }
    let whole = assemble(title, words)
    if whole.utf8.count <= budget { return whole }
    // Shorten the words to what is left once everything else is in place.
    let fixed = assemble(title, "").utf8.count + 2
    let room = budget - fixed - Self.ellipsis.utf8.count
    if room >= 16 {
      return assemble(title, shorten(words, maxBytes: room))
    }
    // A title so long that the words have no room: shorten the title too, keep a few words.
    let titleRoom = max(budget - assemble("", "").utf8.count - 40 - Self.ellipsis.utf8.count, 8)
    let shortTitle = shorten(title, maxBytes: titleRoom)
    let wordsRoom = budget - assemble(shortTitle, "").utf8.count - 2 - Self.ellipsis.utf8.count
    let line = assemble(shortTitle, wordsRoom >= 8 ? shorten(words, maxBytes: wordsRoom) : "")
    return line.utf8.count <= budget ? line : ChatText.prefix(line, maxBytes: budget)
  }

  /// `text` cut between words to `maxBytes` (plus "…"); unchanged when it fits.
  private func shorten(_ text: String, maxBytes: Int) -> String {
    guard text.utf8.count > maxBytes else { return text }
    var cut = ChatText.prefix(text, maxBytes: max(maxBytes, 0))
    if let space = cut.lastIndex(of: " "), cut.distance(from: space, to: cut.endIndex) < 24 {
      cut = String(cut[..<space])
    }
    while cut.last == " " || cut.last == "…" { cut.removeLast() }
    return cut + Self.ellipsis
  }

  // MARK: Full

  /// A post in the full style: header, excerpt and link. When that takes more than `maxRelayLines`, quotes give
  /// way before the poster's own words: first each quote goes on one line ("> Alice posted: words…"), then several
  /// quotes make one "(replying to Alice and Bob)" line; only then are the poster's own words cut ("…", and the link
  /// leads to the rest). A post of quotes alone keeps its quotes, one line each.
  private func fullPost(_ post: PostRelay, before: [String] = [], budget: Int) -> [String] {
    var sections = TextRendering.excerptSections(post.body, maxCharacters: post.excerptLength)
    func lines() -> [String] {
      before + [TextRendering.postHeader(post)] + sections.flatMap(\.lines) + [post.link]
    }
    func fits() -> Bool {
      lines().map(cleanKeepingIndent).filter { !$0.isEmpty }
        .reduce(0) { $0 + IRCLineSplitter.split($1, maxBytes: budget).count } <= maxRelayLines
    }
    if !fits() {
      for index in sections.indices where sections[index].isQuote && sections[index].lines.count > 1 {
        sections[index].lines = [oneLineQuote(sections[index].lines, budget: budget)]
      }
    }
    if !fits(), !PostAnatomy(post.body).isOnlyQuotes, sections.count(where: \.isQuote) > 1,
      let first = sections.firstIndex(where: \.isQuote)
    {
      var names: [String] = []
      for section in sections where section.isQuote {
        if let name = section.quoteAuthor, !names.contains(name) { names.append(name) }
      }
      let replying = names.isEmpty ? "(replying to a quote)" : "(replying to \(NameList.format(names)))"
      sections[first] = TextRendering.ExcerptSection(quoteAuthor: nil, isQuote: true, lines: [replying])
      sections = sections.enumerated().filter { $0.offset == first || !$0.element.isQuote }.map(\.element)
    }
    return fullRelay(lines(), budget: budget, title: post.threadTitle)
  }

  /// A quote's lines ("> Alice posted:", "> words", …) as one line within `budget`: "> Alice posted: words…".
  private func oneLineQuote(_ lines: [String], budget: Int) -> String {
    let words = lines.enumerated().map { offset, line in
      offset > 0 && line.hasPrefix("> ") ? String(line.dropFirst(2)) : line
    }
    return shorten(clean(words.joined(separator: " ")), maxBytes: budget - Self.ellipsis.utf8.count)
  }

  /// A relay's lines, each split to the budget, at most `maxRelayLines`; a cut ends with "…" and the link (the
  /// relay's last line), which leads to the rest of the post.
  /// `title`: the thread title the header line starts with, shown bold (and coloured) when formatting is on.
  private func fullRelay(_ textLines: [String], budget: Int, link explicitLink: String? = nil, title: String? = nil)
    -> [String]
  {
    var textLines = textLines.map(cleanKeepingIndent).filter { !$0.isEmpty }
    if mircFormatting, let title, let header = textLines.first {
      let plain = clean(title)
      if let range = header.range(of: plain), !plain.isEmpty {
        let formatted = header.replacingCharacters(in: range, with: self.title(plain))
        // Formatting codes are a few bytes; a header that would then need a second line is sent plain.
        if formatted.utf8.count <= budget { textLines[0] = formatted }
      }
    }
    let link = explicitLink.map(IRCTextSanitizer.singleLine) ?? textLines.last
    if let link, textLines.last == link { textLines.removeLast() }
    let pieces = textLines.flatMap { IRCLineSplitter.split($0, maxBytes: budget) }
    let linkPieces = link.map { IRCLineSplitter.split($0, maxBytes: budget) } ?? []
    if pieces.count + linkPieces.count <= maxRelayLines { return pieces + linkPieces }
    let room = max(maxRelayLines - linkPieces.count, 1)
    var kept = Array(pieces.prefix(room))
    if var last = kept.popLast() {
      last = shorten(last, maxBytes: budget - Self.ellipsis.utf8.count - 1)
      while last.last == " " { last.removeLast() }
      kept.append(last.hasSuffix(Self.ellipsis) ? last : last + " " + Self.ellipsis)
    }
    return kept + linkPieces
  }

  // MARK: Pieces

  /// Every line, split where IRC's limit needs it; nothing dropped.
  /// Indentation is kept: the lines of a post inside an answer (`latest`) stand under their "• author" line.
  private func split(_ textLines: [String], budget: Int) -> [String] {
    textLines.map(cleanKeepingIndent).filter { !$0.isEmpty }.flatMap { IRCLineSplitter.split($0, maxBytes: budget) }
  }

  /// One line of text made safe for IRC: mIRC codes from the forum removed whole (colour digits too), controls
  /// and line breaks gone.
  private func clean(_ text: String) -> String {
    IRCTextSanitizer.singleLine(IRCTextSanitizer.stripFormatting(text))
  }

  /// `clean`, keeping the spaces a line starts with (the indentation of code).
  private func cleanKeepingIndent(_ text: String) -> String {
    let cleaned = clean(text)
    guard !cleaned.isEmpty, text.first == " " else { return cleaned }
    return String(text.prefix(while: { $0 == " " })) + cleaned
  }

  /// A title in bold (and colour) when formatting is on; the codes are the bot's own, added after cleaning.
  private func title(_ text: String) -> String {
    let cleaned = clean(text)
    return mircFormatting ? IRCMircFormat.title(cleaned, colour: titleColour) : cleaned
  }
}
