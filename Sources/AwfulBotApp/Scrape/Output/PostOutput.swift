import AwfulScraping

/// One post of a thread page or a showpost page.
struct PostOutput: Encodable, Sendable {
  var id: String
  /// 1-based index in the whole thread.
  var index: Int
  /// False when the page had no `data-idx` and the index was derived.
  var indexIsExplicit: Bool
  var author: AuthorOutput
  @JSONNullable var date: String? = nil
  @JSONNullable var dateRaw: String? = nil
  var hasBeenSeen: Bool
  var isIgnored: Bool
  var isEditable: Bool
  var authorCanReceivePrivateMessages: Bool
  @JSONNullable var editNote: String? = nil
  var body: BodyOutput

  init(_ post: Post, format: ScrapeBodyFormat) {
    id = post.id
    index = post.index
    indexIsExplicit = post.indexIsExplicit
    author = AuthorOutput(post.author)
    date = ScrapeJSON.timestamp(post.date)
    dateRaw = post.dateRaw
    hasBeenSeen = post.hasBeenSeen
    isIgnored = post.isIgnored
    isEditable = post.isEditable
    authorCanReceivePrivateMessages = post.authorCanReceivePrivateMessages
    editNote = post.editNote
    body = BodyOutput(post.body, format: format)
  }
}
