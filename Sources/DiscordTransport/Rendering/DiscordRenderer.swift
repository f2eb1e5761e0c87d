import ChatBridge
import ChatRendering
import ForumModel

/// Renders a typed message as the lines of a Discord message, in Discord's markdown, at send time. The words are
/// ChatRendering's plain text (what the console and IRC show: controls stripped, mentions defused, nothing cut but a
/// post's excerpt, which ends with its link), each line escaped by `DiscordMarkdown` so nothing from the forum can
/// format, mention or link anything. The bot's own markdown is the only markdown: a relay's header in bold and the
/// forum quotes in a post as Discord quotes. A relay's short reference (`OutgoingMessage.reference`) is left out:
/// nobody can answer on a webhook.
package struct DiscordRenderer: Sendable, Hashable {
  package var linkPreviews: Bool

  package init(linkPreviews: Bool = false) {
    self.linkPreviews = linkPreviews
  }

  /// The message's lines, complete, in Discord markdown.
  package func lines(_ message: ChatMessage) -> [String] {
    let lines: [String]
    switch message {
    case .post(let post):
      lines = postLines(post, header: bold(TextRendering.postHeader(post)))
    case .alert(let alert):
      let reasons = ChatText.safeLine(alert.reasons.joined(separator: ", "))
      lines =
        ["**Alert:** " + escape(reasons)] + postLines(alert.post, header: bold(TextRendering.postHeader(alert.post)))
    case .announcement(let announcement):
      let header = "Announcement: \(TextRendering.announcementTitle(announcement)) — "
      lines =
        [bold(header) + escape(TextRendering.byline(announcement.author, announcement.date))]
        + excerpt(announcement.body, maxCharacters: announcement.excerptLength) + [escape(announcement.link)]
    case .privateMessage(let alert):
      let plain = TextRendering.privateMessageLines(alert)
      let words = alert.body.map { excerpt($0, maxCharacters: alert.excerptLength) } ?? []
      lines = [bold(plain.first ?? "Private message")] + words + [escape(alert.link)]
    default:
      lines = TextRendering.lines(message).map(escape)
    }
    let kept = lines.filter { !$0.allSatisfy(\.isWhitespace) }
    // Discord refuses an empty message; every message says something.
    return kept.isEmpty ? ["(no text)"] : kept
  }

  /// The message as the contents of the Discord messages that carry it, each within `limit` characters.
  package func messages(_ message: ChatMessage, limit: Int = DiscordMessageSplitter.contentLimit) -> [String] {
    DiscordMessageSplitter.split(lines(message), limit: limit)
  }

  private func postLines(_ post: PostRelay, header: String) -> [String] {
    [header] + excerpt(post.body, maxCharacters: post.excerptLength) + [escape(post.link)]
  }

  /// The excerpt's lines: the poster's words escaped, each forum quote as a Discord quote (`> `, its own `> `
  /// prefix taken off first, so its words are escaped like any others).
  private func excerpt(_ body: [RichText], maxCharacters: Int) -> [String] {
    TextRendering.excerptSections(body, maxCharacters: maxCharacters).flatMap { section in
      section.lines.map { line in
        guard section.isQuote else { return escape(line) }
        var words = Substring(line)
        if words.hasPrefix(">") { words = words.dropFirst() }
        if words.hasPrefix(" ") { words = words.dropFirst() }
        return DiscordMessageSplitter.quotePrefix + escape(String(words))
      }
    }
  }

  private func escape(_ line: String) -> String {
    DiscordMarkdown.escape(line, linkPreviews: linkPreviews)
  }

  private func bold(_ line: String) -> String {
    "**" + escape(line) + "**"
  }
}
