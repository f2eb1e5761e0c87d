import AwfulScraping
import Foundation

/// Turns forum content into chat messages for one transport's capabilities: plain text always, sanitised HTML when
/// the transport renders it. Everything from the forum goes through `ChatText` (controls stripped, mentions
/// defused); long posts are cut with a link to the whole post, and every message fits `maxMessageBytes`.
package struct PostRenderer: Sendable {
  package var links: ForumLinks
  package var excerptLength: Int
  package var dates: DateText

  package init(baseURL: URL, excerptLength: Int = 400, timeZone: TimeZone = .gmt) {
    self.links = ForumLinks(baseURL: baseURL)
    self.excerptLength = max(excerptLength, 0)
    self.dates = DateText(timeZone: timeZone)
  }

  package func postLink(threadID: String, postID: String) -> String {
    links.postLink(threadID: threadID, postID: postID)
  }

  package func threadLink(threadID: String) -> String {
    links.threadLink(threadID: threadID)
  }

  // MARK: Posts

  package func render(post: Post, threadID: String, threadTitle: String, capabilities: ChatCapabilities)
    -> OutgoingMessage
  {
    let link = links.postLink(threadID: threadID, postID: post.id)
    let title = ChatText.safeLine(threadTitle)
    let author = ChatText.safeLine(post.author.name)
    let when = post.date.map(dates.format)
    let header = [title, "—", author].joined(separator: " ") + (when.map { ", \($0)" } ?? "")

    var message = OutgoingMessage(kind: .relay, text: "", threadKey: threadID, link: link)
    var limit = excerptLength
    while true {
      let excerpt = RichTextExcerpt.cut(post.body, maxCharacters: limit)
      message.text = plainPost(header: header, body: excerpt.nodes, link: link)
      message.html =
        capabilities.html
        ? htmlPost(
          title: title, threadID: threadID, author: author, when: when, body: excerpt.nodes,
          wasCut: excerpt.wasCut, link: link) : nil
      if MessageFit.fits(message, capabilities) { return message }
      if limit == 0 { return MessageFit.forceFit(message, capabilities) }
      limit = limit > 12 ? limit * 2 / 3 : 0
    }
  }

  private func plainPost(header: String, body: [RichText], link: String) -> String {
    let excerpt = ChatText.safe(plainText(body, spoilers: .hidden))
    return [header, excerpt, link].filter { !$0.isEmpty }.joined(separator: "\n")
  }

  private func htmlPost(
    title: String, threadID: String, author: String, when: String?, body: [RichText], wasCut: Bool, link: String
  ) -> String {
    var writer = HTMLWriter()
    writer.element("p") { header in
      header.element("b") { bold in bold.link(links.threadLink(threadID: threadID)) { $0.text(title) } }
      header.text(" — ")
      header.element("b") { $0.text(author) }
      header.text(", ")
      header.link(link) { $0.text(when ?? "post") }
    }
    RichTextHTML(links: links).write(body, into: &writer)
    if wasCut {
      writer.element("p") { paragraph in paragraph.link(link) { $0.text("Read the whole post") } }
    }
    return writer.html
  }

  // MARK: Summaries

  /// One line for posts that were not relayed one by one (summary mode, or more than the replay cap).
  package func renderSummary(
    threadID: String, threadTitle: String, count: Int, authors: [String], latestPostID: String?,
    latestAuthor: String?, capabilities: ChatCapabilities, afterReplayCap: Bool = false
  ) -> OutgoingMessage {
    if afterReplayCap {
      return renderReplayRemainder(
        threadID: threadID, threadTitle: threadTitle, count: count, latestPostID: latestPostID,
        latestAuthor: latestAuthor, capabilities: capabilities)
    }
    let title = ChatText.safeLine(threadTitle)
    let link =
      latestPostID.map { links.postLink(threadID: threadID, postID: $0) } ?? links.threadLink(threadID: threadID)
    let names = NameList.format(authors)
    let byline = names.isEmpty ? "" : " by \(names)"
    let latest = latestAuthor.map { "latest by \(ChatText.safeLine($0))" } ?? "latest"
    let counted = "\(NameList.count(count, "new post")) in “\(title)”\(byline)"

    var message = OutgoingMessage(
      kind: .relay, text: "\(counted) (\(latest)): \(link)", threadKey: threadID, link: link)
    if capabilities.html {
      var writer = HTMLWriter()
      writer.text("\(NameList.count(count, "new post")) in ")
      writer.element("b") { bold in bold.link(links.threadLink(threadID: threadID)) { $0.text(title) } }
      writer.text("\(byline) (")
      writer.link(link) { $0.text(latest) }
      writer.text(")")
      message.html = writer.html
    }
    return MessageFit.forceFit(message, capabilities)
  }

  /// The line after a replay cap was reached: "37 more new posts in “T”, latest by X: <link>".
  private func renderReplayRemainder(
    threadID: String, threadTitle: String, count: Int, latestPostID: String?, latestAuthor: String?,
    capabilities: ChatCapabilities
  ) -> OutgoingMessage {
    let title = ChatText.safeLine(threadTitle)
    let link =
      latestPostID.map { links.postLink(threadID: threadID, postID: $0) } ?? links.threadLink(threadID: threadID)
    let counted = "\(count) more new \(count == 1 ? "post" : "posts") in “\(title)”"
    let latest = latestAuthor.map { ", latest by \(ChatText.safeLine($0))" } ?? ""
    var message = OutgoingMessage(kind: .relay, text: "\(counted)\(latest): \(link)", threadKey: threadID, link: link)
    if capabilities.html {
      var writer = HTMLWriter()
      writer.text("\(count) more new \(count == 1 ? "post" : "posts") in ")
      writer.element("b") { bold in bold.link(links.threadLink(threadID: threadID)) { $0.text(title) } }
      writer.text("\(latest): ")
      writer.link(link) { $0.text(link) }
      message.html = writer.html
    }
    return MessageFit.forceFit(message, capabilities)
  }

  // MARK: Announcements

  package func renderAnnouncement(_ announcement: Announcement, title: String?, capabilities: ChatCapabilities)
    -> OutgoingMessage
  {
    let link = links.announcementsLink
    let name = ChatText.safeLine(title ?? announcement.title ?? "Forum announcement")
    let author = ChatText.safeLine(announcement.author.name)
    let when = announcement.date.map(dates.format)
    let header = "Announcement: \(name) — \(author)" + (when.map { ", \($0)" } ?? "")

    var message = OutgoingMessage(kind: .relay, text: "", link: link)
    var limit = excerptLength
    while true {
      let excerpt = RichTextExcerpt.cut(announcement.body, maxCharacters: limit)
      message.text = plainPost(header: header, body: excerpt.nodes, link: link)
      if capabilities.html {
        var writer = HTMLWriter()
        writer.element("p") { paragraph in
          paragraph.text("Announcement: ")
          paragraph.element("b") { bold in bold.link(link) { $0.text(name) } }
          paragraph.text(" — \(author)" + (when.map { ", \($0)" } ?? ""))
        }
        RichTextHTML(links: links).write(excerpt.nodes, into: &writer)
        if excerpt.wasCut {
          writer.element("p") { paragraph in paragraph.link(link) { $0.text("Read the whole announcement") } }
        }
        message.html = writer.html
      }
      if MessageFit.fits(message, capabilities) { return message }
      if limit == 0 { return MessageFit.forceFit(message, capabilities) }
      limit = limit > 12 ? limit * 2 / 3 : 0
    }
  }

  // MARK: Digests

  /// A digest: a title line, then one line per thread; threads that do not fit are counted on a last line.
  package func renderDigest(title: String, entries: [DigestEntry], capabilities: ChatCapabilities)
    -> OutgoingMessage
  {
    let heading = ChatText.safeLine(title)
    var shown = entries.count
    while true {
      let message = digest(heading: heading, entries: entries, shown: shown, capabilities: capabilities)
      if MessageFit.fits(message, capabilities) || shown == 0 {
        return MessageFit.forceFit(message, capabilities)
      }
      shown -= 1
    }
  }

  private func digest(heading: String, entries: [DigestEntry], shown: Int, capabilities: ChatCapabilities)
    -> OutgoingMessage
  {
    var lines = [heading]
    var writer = HTMLWriter()
    writer.element("p") { $0.element("b") { $0.text(heading) } }
    if entries.isEmpty { lines.append("Nothing new.") }
    writer.element("ul") { list in
      for entry in entries.prefix(shown) {
        let link = digestLink(entry)
        let title = ChatText.safeLine(entry.threadTitle)
        let names = NameList.format(entry.authors)
        let detail = NameList.count(entry.postCount, "new post") + (names.isEmpty ? "" : " by \(names)")
        lines.append("• \(title): \(detail) \(link)")
        list.element("li") { item in
          item.element("b") { bold in bold.link(link) { $0.text(title) } }
          item.text(": \(detail)")
        }
      }
    }
    let hidden = entries.count - shown
    if hidden > 0 {
      let more = "…and \(NameList.count(hidden, "more thread"))."
      lines.append(more)
      writer.element("p") { $0.text(more) }
    }
    return OutgoingMessage(
      kind: .relay, text: lines.joined(separator: "\n"), html: capabilities.html ? writer.html : nil)
  }

  private func digestLink(_ entry: DigestEntry) -> String {
    if let postID = entry.firstPostID ?? entry.latestPostID {
      return links.postLink(threadID: entry.threadID, postID: postID)
    }
    return links.threadLink(threadID: entry.threadID)
  }
}
