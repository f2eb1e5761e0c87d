import AwfulScraping

/// `{"error": {…}}`: one of the forum's error pages, printed with exit status 2.
struct ForumErrorOutput: Encodable, Sendable {
  struct Detail: Encodable, Sendable {
    /// `standard`, `loggedOut`, `databaseUnavailable`, `banned`, `threadClosed` or `probation` (posting refused
    /// because of it; the banner on a normal page is not an error).
    var kind: String
    @JSONNullable var title: String? = nil
    @JSONNullable var message: String? = nil
    @JSONNullable var helpURL: String? = nil
    @JSONNullable var reasonURL: String? = nil
    /// What it means, in a sentence.
    var description: String
  }

  var error: Detail

  init(_ error: ForumPageError) {
    var detail = Detail(kind: "", description: error.description)
    switch error {
    case .standard(let title, let message):
      detail.kind = "standard"
      detail.title = title
      detail.message = message
    case .loggedOut(let message):
      detail.kind = "loggedOut"
      detail.message = message
    case .databaseUnavailable(let title, let message):
      detail.kind = "databaseUnavailable"
      detail.title = title
      detail.message = message
    case .banned(let helpURL, let reasonURL):
      detail.kind = "banned"
      detail.helpURL = helpURL
      detail.reasonURL = reasonURL
    case .threadClosed(let title, let message):
      detail.kind = "threadClosed"
      detail.title = title
      detail.message = message
    case .probation(let message):
      detail.kind = "probation"
      detail.message = message
    }
    self.error = detail
  }
}
