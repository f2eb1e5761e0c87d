import ChatBridge
import ChatRendering
import ForumModel
import Foundation

/// Renders a typed message for Matrix at send time: a plain `body` (the text transports' lines) and an allow-listed
/// HTML `formatted_body` built from the same structure, never from the body. Text from the forum or from users is
/// made safe as it is written (`ChatText` in both forms), so nothing is parsed back out of rendered text.
package struct MatrixRenderer: Sendable {
  /// The largest body or HTML in UTF-8 bytes. Matrix events may be 65,536 bytes of JSON in all; escaping and the
  /// other fields need room, so each form gets a little under half.
  package var maxBytes: Int

  package init(maxBytes: Int = 30_000) {
    self.maxBytes = maxBytes
  }

  /// One event's worth: body and HTML (nil: plain only).
  package struct Rendered: Sendable, Hashable {
    package var body: String
    package var html: String?
  }

  /// The events to send for `message`, in order. One, unless an answer is longer than one event may be: then it is
  /// split between its lines over as many events as it needs, never cut.
  package func render(_ message: ChatMessage) -> [Rendered] {
    switch message {
    case .answer(let answer):
      return answerEvents(answer)
    case .legacy(let text, _, _):
      // Rows queued before typed messages: their HTML was built by an older renderer; the plain text is enough.
      return [Rendered(body: ChatText.safe(text), html: nil)]
    default:
      let body = TextRendering.lines(message).joined(separator: "\n")
      let html = relayHTML(message)
      return [fitted(Rendered(body: body, html: html))]
    }
  }

  // MARK: Relays

  private func relayHTML(_ message: ChatMessage) -> String? {
    var writer = HTMLWriter()
    switch message {
    case .post(let post):
      writePost(post, into: &writer)
    case .alert(let alert):
      writer.element("p") { paragraph in
        paragraph.element("b") { $0.text("Alert:") }
        paragraph.text(" " + alert.reasons.joined(separator: ", "))
      }
      writePost(alert.post, into: &writer)
    case .summary(let summary):
      writeSummary(summary, into: &writer)
    case .announcement(let announcement):
      writer.element("p") { paragraph in
        paragraph.text("Announcement: ")
        paragraph.element("b") { bold in
          bold.link(announcement.link) { $0.text(TextRendering.announcementTitle(announcement)) }
        }
        paragraph.text(" — " + TextRendering.byline(announcement.author, announcement.date))
      }
      writeExcerpt(announcement.body, limit: announcement.excerptLength, link: announcement.link, into: &writer)
    case .newThread(let notice):
      writer.text("New thread" + (notice.forumName.map { " in \($0)" } ?? "") + ": ")
      writer.link(notice.link) { $0.text(notice.title) }
      if let author = notice.author { writer.text(" by \(author)") }
    case .digest(let digest):
      writer.element("p") { $0.element("b") { $0.text(digest.title) } }
      if digest.entries.isEmpty { writer.element("p") { $0.text("Nothing new.") } }
      writer.element("ul") { list in
        for entry in digest.entries {
          list.element("li") { item in
            item.element("b") { bold in bold.link(entry.link) { $0.text(entry.threadTitle) } }
            item.text(": " + TextRendering.digestDetail(entry))
          }
        }
      }
    case .privateMessage(let alert):
      writer.element("p") { paragraph in
        paragraph.element("b") { $0.text("Private message") }
        paragraph.text(" ")
        paragraph.link(alert.link) { $0.text("“\(TextRendering.privateMessageSubject(alert))”") }
        if let sender = alert.sender {
          paragraph.text(" from ")
          paragraph.element("b") { $0.text(sender) }
        }
        if let date = alert.date { paragraph.text(", " + date.text) }
      }
      if let body = alert.body {
        writeExcerpt(
          body, limit: alert.excerptLength, link: alert.link, readMore: "Read the whole message", into: &writer)
      }
    case .punishment(let relay):
      writePunishment(relay, into: &writer)
    case .punishments(let summary):
      writePunishmentSummary(summary, into: &writer)
    case .answer, .legacy:
      return nil
    }
    return writer.html
  }

  private func writePost(_ post: PostRelay, into writer: inout HTMLWriter) {
    writer.element("p") { header in
      header.element("b") { bold in bold.link(post.threadLink) { $0.text(post.threadTitle) } }
      header.text(" — ")
      header.element("b") { $0.text(post.author) }
      header.text(", ")
      header.link(post.link) { $0.text(post.date?.text ?? "post") }
    }
    writeExcerpt(
      post.body, limit: post.excerptLength, link: post.link, quoteLinks: post.quoteLinks ?? [:], into: &writer)
  }

  /// `readMore` is the link under a cut excerpt: a post's by default, a private message names itself. A quote whose
  /// post is in `quoteLinks` links its "X posted:" there.
  private func writeExcerpt(
    _ body: [RichText], limit: Int, link: String?, readMore: String = "Read the whole post",
    quoteLinks: [String: String] = [:], into writer: inout HTMLWriter
  ) {
    let excerpt = PostExcerpt(body, maxCharacters: limit)
    RichTextHTML(quoteLink: { quoteLinks[$0] }).write(excerpt.nodes, into: &writer)
    if excerpt.onlyQuotes {
      writer.element("p") { $0.element("i") { $0.text("(only a quote, no words of their own)") } }
    }
    if excerpt.wasCut {
      if let link {
        writer.element("p") { paragraph in paragraph.link(link) { $0.text(readMore) } }
      } else {
        writer.element("p") { $0.text("…") }
      }
    }
  }

  private func writeSummary(_ summary: PostSummary, into writer: inout HTMLWriter) {
    if summary.afterReplayCap {
      writer.text("\(NameList.count(summary.count, "more new post")) in ")
      writer.element("b") { bold in bold.link(summary.threadLink) { $0.text(summary.threadTitle) } }
      writer.text((summary.latestAuthor.map { ", latest by \($0)" } ?? "") + ": ")
      writer.link(summary.latestLink) { $0.text(summary.latestLink) }
      return
    }
    let names = NameList.format(summary.authors)
    writer.text("\(NameList.count(summary.count, "new post")) in ")
    writer.element("b") { bold in bold.link(summary.threadLink) { $0.text(summary.threadTitle) } }
    writer.text((names.isEmpty ? "" : " by \(names)") + " (")
    writer.link(summary.latestLink) { $0.text(summary.latestAuthor.map { "latest by \($0)" } ?? "latest") }
    writer.text(")")
  }

  // MARK: Answers

  private func answerEvents(_ answer: CommandAnswer) -> [Rendered] {
    var events: [Rendered] = []
    var bodyLines: [String] = []
    var html = HTMLWriter()
    var openList = false
    var items = HTMLWriter()
    func closeList() {
      guard openList else { return }
      html.element("ul") { $0.append(items) }
      items = HTMLWriter()
      openList = false
    }
    func flush() {
      closeList()
      guard !bodyLines.isEmpty else { return }
      events.append(Rendered(body: bodyLines.joined(separator: "\n"), html: html.html))
      bodyLines = []
      html = HTMLWriter()
    }
    for line in answer.lines {
      let lineBody = TextRendering.answerLines(CommandAnswer(lines: [line]))
      let lineBytes = lineBody.joined(separator: "\n").utf8.count
      // A new event when this line would overflow the current one (HTML is about twice the text at most).
      if !bodyLines.isEmpty && (bodyLines.joined(separator: "\n").utf8.count + lineBytes) * 3 > maxBytes {
        flush()
      }
      bodyLines += lineBody
      switch line {
      case .item(let parts):
        openList = true
        items.element("li") { writeParts(parts, into: &$0) }
      case .sentence(let parts):
        closeList()
        html.element("p") { writeParts(parts, into: &$0) }
      case .field(let name, let parts):
        closeList()
        html.element("p") { paragraph in
          paragraph.element("b") { $0.text(name + ":") }
          paragraph.text(" ")
          writeParts(parts, into: &paragraph)
        }
      case .post(let post):
        closeList()
        html.element("blockquote") { quote in
          quote.element("p") { header in
            header.element("b") { $0.text(post.author) }
            header.text(", ")
            header.link(post.link) { $0.text(post.date?.text ?? "post") }
          }
          writeExcerpt(
            post.body, limit: post.excerptLength, link: post.link, quoteLinks: post.quoteLinks ?? [:], into: &quote)
        }
      case .quote(let lines):
        closeList()
        html.element("blockquote") { quote in
          for (index, line) in lines.enumerated() {
            if index > 0 { quote.element("br") }
            quote.text(line)
          }
        }
      case .excerpt(let body, let limit):
        closeList()
        html.element("blockquote") { quote in
          if PostExcerpt(body, maxCharacters: limit).nodes.isEmpty {
            quote.element("p") { $0.element("i") { $0.text("(no text)") } }
          } else {
            writeExcerpt(body, limit: limit, link: nil, into: &quote)
          }
        }
      }
    }
    flush()
    return events.isEmpty ? [Rendered(body: "", html: nil)] : events.map(fitted)
  }

  private func writeParts(_ parts: [CommandAnswer.Part], into writer: inout HTMLWriter) {
    for part in parts {
      switch part {
      case .text(let text): writer.text(text)
      case .bold(let text): writer.element("b") { $0.text(text) }
      case .code(let text): writer.element("code") { $0.text(text) }
      case .date(let date): writer.text(date.text)
      case .link(let label, let url): writer.link(url) { $0.text(label.isEmpty ? url : label) }
      }
    }
  }

  /// Last resort for a relay too large for one event (a post's excerpt is short, so this does not happen in
  /// practice): the HTML is dropped before the plain body is shortened, and a shortened body says so.
  private func fitted(_ rendered: Rendered) -> Rendered {
    var result = rendered
    if let html = result.html, html.utf8.count > maxBytes { result.html = nil }
    if result.body.utf8.count > maxBytes {
      let marker = "\n… (too long for one Matrix message)"
      result.body = ChatText.prefix(result.body, maxBytes: maxBytes - marker.utf8.count) + marker
    }
    return result
  }
}
