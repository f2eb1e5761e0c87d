import Foundation

/// A page the forum serves instead of what was asked for. Each case says what happened and what to do.
package enum ForumPageError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
  /// `body.standarderror`.
  case standard(title: String, message: String)
  /// The logged-out page: "you must be a registered forums member".
  case loggedOut(message: String)
  /// `body.database_error`.
  case databaseUnavailable(title: String, message: String)
  /// `body.banned`.
  case banned(helpURL: String?, reasonURL: String?)
  /// `body.standardredirect` "Sorry! This thread is closed!".
  case threadClosed(title: String, message: String)
  /// Posting refused because the account is on probation (a standard error page that says so). The banner on a
  /// normal page is not this error: it is read as a `Probation` value.
  case probation(message: String)
  /// Posting refused by the flood check (a standard error page): the account posted less than `interval` seconds ago
  /// (when the sentence says) and must wait `retryAfter` seconds. `message` is the forum's sentence.
  case floodCheck(message: String, interval: Int?, retryAfter: Int)

  package var description: String {
    switch self {
    case .standard(let title, let message): "The forum says: \(title): \(message)"
    case .loggedOut: "The forum session has expired or the account is logged out; log in again."
    case .databaseUnavailable(let title, let message):
      "The forum database is unavailable (\(title) \(message)); try again later."
    case .banned(_, let reason):
      "The forum account is banned\(reason.map { " (see \($0))" } ?? ""); the bot cannot read or post."
    case .threadClosed: "The thread is closed; replies are not accepted."
    case .probation(let message): "The forum account is on probation: \(message)"
    case .floodCheck(let message, _, _): "The forum says: \(message)"
    }
  }

  /// The refusal to take a post this page says, with the forum's sentence; nil for pages that refuse nothing posted.
  package var postingRefusal: PostingRefusal? {
    switch self {
    case .floodCheck(let message, let interval, let retryAfter):
      PostingRefusal(.floodCheck(interval: interval, retryAfter: retryAfter), message: message)
    case .threadClosed(let title, let message):
      PostingRefusal(.threadClosed, message: Self.closedSentence(title: title, message: message))
    case .probation(let message): PostingRefusal(.probation, message: message)
    default: nil
    }
  }

  /// "Sorry! This thread is closed!" again from the halves the closed-thread page is read as ("Sorry!" and "! This
  /// thread is closed!", split at the first "!" as the forum's own client does).
  package static func closedSentence(title: String, message: String) -> String {
    let rest = message.hasPrefix("!") ? String(message.dropFirst()) : message
    let sentence = (title + " " + rest).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    return sentence.isEmpty ? "This thread is closed!" : sentence
  }
}

/// A page that could not be understood: the markup changed or the page is not what was expected.
package struct ScrapeError: Error, Sendable, Hashable, CustomStringConvertible {
  package var page: String
  package var reason: String

  package init(page: String, reason: String) {
    self.page = page
    self.reason = reason
  }

  package var description: String {
    "Could not read the \(page) page: \(reason). The forum may have changed its markup; try `awfulbot scrape` on a saved copy."
  }
}
