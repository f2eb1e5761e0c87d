import ForumModel

/// A forum post to show in a room: who wrote what where, with the post's address and its whole body, so each
/// renderer cuts it to its own budget (own words first, quotes shortened) at send time.
package struct PostRelay: Sendable, Hashable, Codable {
  package var address: PostAddress
  package var threadTitle: String
  /// The forum the thread is in, when known.
  package var forumName: String?
  package var author: String
  /// When it was posted, written by the renderer (`2025-01-02 15:04 UTC` in the bot's configured zone).
  package var date: ChatDate?
  /// The page that holds the post, scrolled to it.
  package var link: String
  /// The thread's first page (titles link there).
  package var threadLink: String
  package var body: [RichText]
  /// The link of each post the body quotes, by post id, for renderers that link a quote's "X posted:" to its
  /// source. Optional so rows queued before it existed still decode.
  package var quoteLinks: [String: String]?
  /// About how many characters of the body to show; the rest is behind the link.
  package var excerptLength: Int

  package init(
    address: PostAddress, threadTitle: String, forumName: String? = nil, author: String, date: ChatDate?,
    link: String, threadLink: String, body: [RichText], quoteLinks: [String: String]? = nil, excerptLength: Int
  ) {
    self.address = address
    self.threadTitle = threadTitle
    self.forumName = forumName
    self.author = author
    self.date = date
    self.link = link
    self.threadLink = threadLink
    self.body = body
    self.quoteLinks = quoteLinks
    self.excerptLength = excerptLength
  }
}
