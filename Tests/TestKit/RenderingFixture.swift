import ChatBridge
import ChatRendering
import ForumModel
import Foundation

/// Posts, links and dates shared by the rendering tests (the engine's excerpts, the text transports' lines).
package enum RenderingFixture {
  package static let baseURL = URL(string: "https://forums.somethingawful.com/")!
  package static let links = ForumLinks(baseURL: baseURL)
  package static let address = PostAddress(threadID: "3526065", postID: "411639264", index: 2)
  /// `address`'s link: page 1 (post 2 of the thread), scrolled to the post.
  package static let link =
    "https://forums.somethingawful.com/showthread.php?threadid=3526065&perpage=40&pagenumber=1#post411639264"
  package static let threadLink = "https://forums.somethingawful.com/showthread.php?threadid=3526065&perpage=40"
  package static let dateText = "2023-11-14 22:13 UTC"
  package static let date = ChatDate(Date(timeIntervalSince1970: 1_700_000_000), timeZone: .gmt)

  package static func relay(
    _ body: [RichText], title: String = "A Thread", author: String = "Goon", excerptLength: Int = 400
  ) -> PostRelay {
    PostRelay(
      address: address, threadTitle: title, author: author, date: date, link: links.post(address),
      threadLink: links.thread(address.threadID), body: body, excerptLength: excerptLength)
  }

  package static func lines(
    _ body: [RichText], title: String = "A Thread", author: String = "Goon", excerptLength: Int = 400
  ) -> [String] {
    TextRendering.lines(.post(relay(body, title: title, author: author, excerptLength: excerptLength)))
  }

  /// A post that opens with a long quote and then answers it.
  package static let quoteThenAnswer: [RichText] = [
    .quote(author: "Alice", postID: "411637955", [.text(String(repeating: "blah ", count: 100))]),
    .text("I disagree entirely."),
  ]
}
