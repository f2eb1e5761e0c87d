import ForumModel

/// What went wrong talking to the forum, each case saying what to do about it.
package enum ForumsClientError: ForumFailure, Sendable, Hashable {
  /// The forum refused the username or password.
  case badCredentials
  /// The account is banned (the forum's help and reason links, when given).
  case banned(helpURL: String?, reasonURL: String?)
  /// The forum's database is down.
  case databaseUnavailable(message: String)
  /// The session ended and logging in again did not bring it back.
  case loggedOut
  /// The account is on probation and cannot post.
  case probation(message: String)
  /// Replying to a closed thread; `message` is the forum's sentence ("Sorry! This thread is closed!").
  case threadClosed(message: String)
  /// The forum's flood check refused a post made too soon after the account's last one: `retryAfter` seconds are
  /// left (`interval` is the forum's minimum between posts, when it says). `message` is the forum's sentence.
  case floodCheck(message: String, interval: Int?, retryAfter: Int)
  /// The forum answered with one of its error pages (no permission, …).
  case forumRefused(title: String, message: String)
  /// The thread, post or forum asked for does not exist (or the account cannot see it).
  case notFound(ForumNotFound)
  /// A page arrived but could not be read.
  case pageNotUnderstood(ScrapeError)
  /// An HTTP status that is not a success, after any retries.
  case http(status: Int)
  /// The request did not complete: connection refused or reset, DNS, TLS, … (the underlying error's description).
  case transport(String)
  /// The exchange took longer than the configured request timeout.
  case timedOut(seconds: Double)
  /// The response body exceeded the configured cap.
  case bodyTooLarge(limit: Int)
  /// Redirects kept coming.
  case tooManyRedirects
  /// `locatePost` got no redirect: the post does not exist or is not visible to the account.
  case postNotFound(postID: String)
  /// Something in front of the forum answered instead of it (`ForumWall`).
  case walled(ForumWall)
  /// The forum answered a request for one of its attachments (`attachment.php`) with a page or nothing instead of
  /// the file: `reason` says which (its error page's sentence, when it showed one).
  case attachmentRefused(id: String, reason: String)

  package var description: String {
    switch self {
    case .badCredentials:
      "The forum rejected the username or password; check the forum credentials in the configuration."
    case .banned(_, let reason):
      "The forum account is banned\(reason.map { " (see \($0))" } ?? ""); the bot cannot read or post until it is lifted."
    case .databaseUnavailable(let message):
      "The forum database is unavailable (\(message)); the bot will try again later."
    case .loggedOut:
      "The forum session expired and logging in again did not restore it; check the account and try again later."
    case .probation(let message):
      "The forum account is on probation (\(message)); it cannot post until the probation ends."
    case .threadClosed(let message):
      "The forum says: \(message) It does not accept replies."
    case .floodCheck(let message, _, _):
      "The forum says: \(message)"
    case .forumRefused(let title, let message):
      "The forum refused the request: \(title): \(message)"
    case .notFound(let notFound):
      notFound.description
    case .pageNotUnderstood(let error):
      error.description
    case .http(let status):
      "The forum answered HTTP \(status); if it persists, check the forum's status and the configured base URL."
    case .transport(let detail):
      "Could not reach the forum (\(detail)); check the network and the configured base URL."
    case .timedOut(let seconds):
      "The forum did not answer within \(seconds) s; it may be overloaded. Try again later or raise the timeout."
    case .bodyTooLarge(let limit):
      "The forum sent a page larger than \(limit) bytes; refusing it. Raise the body-size cap if this is expected."
    case .tooManyRedirects:
      "The forum kept redirecting; check the configured base URL."
    case .postNotFound(let postID):
      "The forum does not show post \(postID); it may have been deleted or be in a forum the account cannot read."
    case .walled(let wall):
      wall.description
    case .attachmentRefused(let id, let reason):
      "The forum did not give attachment \(id): \(reason)"
    }
  }

  package var wall: ForumWall? {
    if case .walled(let wall) = self { return wall }
    return nil
  }

  /// The client error for a page the forum served instead of the one asked for.
  package init(_ pageError: ForumPageError) {
    switch pageError {
    case .standard(let title, let message):
      self = ForumNotFound(errorMessage: message).map(Self.notFound) ?? .forumRefused(title: title, message: message)
    case .loggedOut: self = .loggedOut
    case .databaseUnavailable(let title, let message):
      self = .databaseUnavailable(message: [title, message].filter { !$0.isEmpty }.joined(separator: " "))
    case .banned(let help, let reason): self = .banned(helpURL: help, reasonURL: reason)
    case .threadClosed(let title, let message):
      self = .threadClosed(message: ForumPageError.closedSentence(title: title, message: message))
    case .probation(let message): self = .probation(message: message)
    case .floodCheck(let message, let interval, let retryAfter):
      self = .floodCheck(message: message, interval: interval, retryAfter: retryAfter)
    }
  }

  /// Set for the refusals of a post (flood check, closed thread, probation), so the engine can tell them apart from
  /// failures to reach or read the forum: nothing was posted, and the forum said why.
  package var postingRefusal: PostingRefusal? {
    switch self {
    case .floodCheck(let message, let interval, let retryAfter):
      PostingRefusal(.floodCheck(interval: interval, retryAfter: retryAfter), message: message)
    case .threadClosed(let message): PostingRefusal(.threadClosed, message: message)
    case .probation(let message): PostingRefusal(.probation, message: message)
    default: nil
    }
  }

  package var isNotFound: Bool {
    if case .notFound = self { return true }
    return false
  }

  /// Whether trying the same request again soon might succeed.
  package var isTransient: Bool {
    switch self {
    case .databaseUnavailable, .transport, .timedOut: true
    case .http(let status): RetryPolicy.isRetryable(status: status)
    default: false
    }
  }
}
