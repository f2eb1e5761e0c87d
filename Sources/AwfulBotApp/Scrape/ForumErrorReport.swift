import ForumModel

/// What `awfulbot scrape` prints for one of the forum's error pages (exit status 2): the typed error in its own
/// coding (the case name holding its fields) and the sentence the bot would say about it.
struct ForumErrorReport: Encodable {
  var error: ForumPageError
  var description: String

  init(_ error: ForumPageError) {
    self.error = error
    description = error.description
  }
}
