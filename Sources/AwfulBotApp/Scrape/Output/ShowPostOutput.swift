import AwfulScraping

/// `kind: "post"`: a single post (`showthread.php?action=showpost`).
struct ShowPostOutput: Encodable, Sendable {
  var kind = ScrapeKind.post.rawValue
  @JSONNullable var threadID: String? = nil
  @JSONNullable var threadTitle: String? = nil
  var post: PostOutput

  init(_ page: ShowPostPage, format: ScrapeBodyFormat) {
    threadID = page.threadID
    threadTitle = page.threadTitle
    post = PostOutput(page.post, format: format)
  }
}
