import AwfulScraping
import Foundation

/// "New thread in <forum>: <title> by <author>: <link>", for rooms following a forum's new threads.
enum NewThreadMessage {
  static func render(
    _ thread: ThreadListThread, forumTitle: String?, renderer: PostRenderer, capabilities: ChatCapabilities
  ) -> OutgoingMessage {
    let link = renderer.threadLink(threadID: thread.id)
    let title = ChatText.safeLine(thread.title)
    let forum = forumTitle.map { " in \(ChatText.safeLine($0))" } ?? ""
    let author = thread.authorName.map { " by \(ChatText.safeLine($0))" } ?? ""
    var message = OutgoingMessage(
      kind: .relay, text: "New thread\(forum): \(title)\(author): \(link)", threadKey: thread.id, link: link)
    if capabilities.html {
      message.html =
        "New thread\(ChatText.escapeHTML(forum)): <a href=\"\(ChatText.escapeHTML(link))\">\(ChatText.escapeHTML(title))</a>"
        + ChatText.escapeHTML(author)
    }
    return MessageFit.forceFit(message, capabilities)
  }
}
