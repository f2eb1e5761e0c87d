import BotStore
import ChatBridge
import ForumModel
import Foundation

/// Turns any error into one line fit for chat: the forum's and engine's own errors by their description (a wall in
/// front of the forum as the answer to a command: ask again), anything else by its description with anything that
/// looks like a secret removed. Never a stack trace.
package enum ErrorText {
  package static func describe(_ error: any Error) -> String {
    let text: String
    switch error {
    case let error as CommandError: text = error.description
    case ForumPageError.standard(_, let message) where ForumNotFound(errorMessage: message) != nil:
      text = ForumNotFound(errorMessage: message)?.description ?? message
    case let error as ForumPageError: text = error.description
    case let error as any ForumFailure: text = error.wall?.commandAnswer ?? error.description
    case let error as ScrapeError: text = error.description
    case let error as EngineError: text = error.description
    case let error as ThreadReference.ParseError: text = error.description
    case is CancellationError: text = "The bot is shutting down; try again in a moment."
    case BotStoreError.storageFull:
      text =
        "The bot's disk is full, so it cannot save that; try again once an operator has freed space "
        + "(relaying picks up by itself then)."
    default: text = "Something went wrong: \(redact(String(describing: error)))"
    }
    return oneLine(text)
  }

  /// Keys whose values are never shown, whatever error they appear in.
  private static let secretKeys = [
    "password", "passwd", "token", "access_token", "cookie", "bbpassword", "bbuserid", "sessionhash", "authorization",
  ]

  /// Removes `key=value`, `key: value` and `"key":"value"` for secret-looking keys.
  package static func redact(_ text: String) -> String {
    var result = text
    for key in secretKeys {
      let pattern = "(?i)(\"?\(key)\"?\\s*[=:]\\s*\"?)[^\"&;,\\s)]+"
      guard let expression = try? NSRegularExpression(pattern: pattern) else { continue }
      let range = NSRange(result.startIndex..., in: result)
      result = expression.stringByReplacingMatches(in: result, range: range, withTemplate: "$1[redacted]")
    }
    return result
  }

  private static func oneLine(_ text: String) -> String {
    let line = ChatText.safeLine(text)
    return line.count > 300 ? String(line.prefix(299)) + "…" : line
  }
}
