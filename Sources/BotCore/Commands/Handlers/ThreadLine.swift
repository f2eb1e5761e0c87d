import ChatBridge
import ForumModel
import Foundation

/// One thread of a list (bookmarks, a forum page) as a reply line.
enum ThreadLine {
  static func parts(_ thread: ThreadListThread, context: CommandContext) -> [CommandReply.Part] {
    var details: [String] = []
    if thread.isSticky { details.append("sticky") }
    if thread.isClosed { details.append("closed") }
    if let star = thread.star { details.append(star.name) }
    if let unread = thread.unreadCount, unread > 0 { details.append("\(unread) unread") }
    details.append(NameList.count(thread.replyCount, "reply", plural: "replies"))
    var last: [CommandReply.Part] = []
    if let author = thread.lastPostAuthor {
      details.append("last by \(author)")
      if let date = thread.lastPostDate { last = [.text(" "), context.composer.dates.part(date)] }
    }
    return [
      .link(label: thread.title, url: context.links.thread(thread.id)),
      .text(" (\(thread.id)) — " + details.joined(separator: ", ")),
    ] + last
  }
}
