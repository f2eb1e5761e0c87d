import ChatBridge
import ForumModel
import Foundation

/// Decides what the bot says about forum content, as typed messages: which post, whose words, which links, how
/// long an excerpt, dates in the configured time zone. How it looks is each transport's composer's business.
package struct MessageComposer: Sendable {
  package var links: ForumLinks
  package var excerptLength: Int
  package var dates: DateText

  package init(baseURL: URL, excerptLength: Int = 400, timeZone: TimeZone = .gmt) {
    self.links = ForumLinks(baseURL: baseURL)
    self.excerptLength = max(excerptLength, 0)
    self.dates = DateText(timeZone: timeZone)
  }

  /// The address of a post of `threadID` (the page comes from its index).
  package func address(of post: Post, threadID: String) -> PostAddress {
    PostAddress(threadID: threadID, postID: post.id, index: post.index)
  }

  package func post(_ post: Post, threadID: String, threadTitle: String, excerptLength: Int? = nil) -> PostRelay {
    let address = address(of: post, threadID: threadID)
    return PostRelay(
      address: address, threadTitle: threadTitle, author: post.author.name,
      date: post.date.map { ChatDate($0, timeZone: dates.timeZone) },
      link: links.post(address), threadLink: links.thread(threadID), body: post.body,
      quoteLinks: quoteLinks(in: post.body), excerptLength: excerptLength ?? self.excerptLength)
  }

  /// Where each quoted post is: the forum finds its page (`goto=post`), as the quote's own link on the forum does.
  func quoteLinks(in body: [RichText]) -> [String: String]? {
    let ids = RichText.quotedPostIDs(in: body)
    guard !ids.isEmpty else { return nil }
    return Dictionary(uniqueKeysWithValues: ids.map { ($0, links.post(id: $0)) })
  }

  /// Posts told as a count: `latest` is the newest of them.
  package func summary(
    threadID: String, threadTitle: String, count: Int, authors: [String], latest: Post?, afterReplayCap: Bool
  ) -> PostSummary {
    PostSummary(
      threadTitle: threadTitle, threadLink: links.thread(threadID), count: count, authors: authors,
      latestAuthor: latest?.author.name,
      latestLink: latest.map { links.post(address(of: $0, threadID: threadID)) } ?? links.thread(threadID),
      afterReplayCap: afterReplayCap)
  }

  package func announcement(_ announcement: Announcement) -> AnnouncementRelay {
    AnnouncementRelay(
      title: announcement.title, author: announcement.author.name,
      date: announcement.date.map { ChatDate($0, timeZone: dates.timeZone, hasTime: announcement.dateHasTime) },
      link: links.announcements(), body: announcement.body, excerptLength: excerptLength)
  }

  package func newThread(_ thread: ThreadListThread, forumTitle: String?) -> NewThreadNotice {
    NewThreadNotice(
      forumName: forumTitle, title: thread.title, author: thread.authorName, link: links.thread(thread.id))
  }

  /// A private message as an alert: the text only when `body` is given (excerpts on).
  package func privateMessage(_ header: PrivateMessageHeader, body: [RichText]?) -> PrivateMessageAlert {
    PrivateMessageAlert(
      id: header.id, subject: header.subject, sender: header.sender,
      date: header.sentDate.map { ChatDate($0, timeZone: dates.timeZone) },
      link: links.privateMessage(id: header.id), body: body, excerptLength: excerptLength)
  }
}
