import ChatBridge
import ForumModel
import Foundation

/// Answers forum links pasted in a room with "Forum › Thread, page P of N, post by X". The answer has no link in
/// it, so a bot (or this one) seeing the answer never unfurls it again.
package struct LinkUnfurler: Sendable {
  /// Links answered per message: enough for a normal message, not a flood for a pasted list.
  package static let maximumLinks = 3

  package var forum: any Forum
  package var dates: DateText

  package init(forum: any Forum, dates: DateText = DateText(timeZone: .gmt)) {
    self.forum = forum
    self.dates = dates
  }

  /// The forum links in a chat line, in order, without repeats.
  package func links(in text: String) -> [(reference: ThreadReference, page: Int?)] {
    var found: [(ThreadReference, Int?)] = []
    for word in text.split(whereSeparator: \.isWhitespace) {
      let candidate = word.trimmingCharacters(in: CharacterSet(charactersIn: "<>()[]\"'“”.,!?;"))
      guard candidate.contains("showthread.php"), let url = ThreadReference.link(candidate),
        case .success(let reference) = ThreadReference.parse(candidate, baseURL: forum.baseURL)
      else { continue }
      guard !found.contains(where: { $0.0 == reference }) else { continue }
      let page = url.queryItems?.first(where: { $0.name.lowercased() == "pagenumber" })?.value.flatMap { Int($0) }
      found.append((reference, page))
      if found.count == Self.maximumLinks { break }
    }
    return found
  }

  /// One line per link that could be read; links the forum refuses are skipped (an unfurl is a courtesy).
  package func unfurl(_ text: String) async -> CommandReply? {
    var reply = CommandReply()
    for (reference, page) in links(in: text) {
      if let line = try? await describe(reference, page: page) { reply.add(sentence: line) }
    }
    return reply.lines.isEmpty ? nil : reply
  }

  private func describe(_ reference: ThreadReference, page requestedPage: Int?) async throws -> [CommandReply.Part] {
    let threadID: String
    var page = requestedPage ?? 1
    var postID: String?
    switch reference {
    case .thread(let id):
      threadID = id
    case .post(let id, let thread):
      postID = id
      let location = try await forum.locatePost(postID: id)
      threadID = thread ?? location.threadID
      page = location.page
    }
    let posts = try await forum.threadPage(threadID: threadID, page: .number(page))
    var line = ""
    if let forumName = posts.breadcrumbs.last?.name { line += "\(forumName) › " }
    line += posts.threadTitle
    if let navigation = posts.page {
      line += ", page \(navigation.current) of \(navigation.total)"
    }
    if let postID, let post = posts.posts.first(where: { $0.id == postID }) {
      line += ", post by \(post.author.name)"
      if let date = post.date { return [.text(line + " ("), dates.part(date), .text(")")] }
    } else if let first = posts.posts.first, page == 1 {
      line += ", started by \(first.author.name)"
    }
    return [.text(line)]
  }
}
