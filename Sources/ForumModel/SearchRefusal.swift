/// The forum would not search: the account is not a Platinum account ("only accessible to Platinum members"), or it
/// searched again too soon after its last search. `message` is the forum's own sentence, from its error page.
package struct SearchRefusal: ForumFailure, Sendable, Hashable, Codable {
  package enum Reason: Sendable, Hashable, Codable {
    /// Search is for Platinum accounts; the bot's is not one.
    case requiresPlatinum
    /// The forum's limit on searches: wait `retryAfter` seconds (when its sentence says).
    case tooSoon(retryAfter: Int?)
  }

  package var reason: Reason
  package var message: String

  package init(_ reason: Reason, message: String) {
    self.reason = reason
    self.message = message
  }

  /// Recognises a standard error page's message as a refusal to search; nil for any other message.
  package init?(errorMessage message: String) {
    let lowered = message.lowercased()
    if lowered.contains("platinum") {
      self.init(.requiresPlatinum, message: message)
    } else if lowered.contains("between searches") || lowered.contains("search flood")
      || lowered.contains("one search every")
    {
      self.init(.tooSoon(retryAfter: Self.seconds(after: "try again in", in: lowered)), message: message)
    } else {
      return nil
    }
  }

  package var description: String {
    switch reason {
    case .requiresPlatinum:
      "The bot's forum account is not a Platinum account, so the forum will not let it search; the forum says: "
        + "“\(message)”"
    case .tooSoon:
      "The forum will not search again so soon; it says: “\(message)”"
    }
  }

  /// The whole number right after `phrase`, clamped (an outside number).
  private static func seconds(after phrase: String, in text: String) -> Int? {
    guard let range = text.range(of: phrase) else { return nil }
    let digits = text[range.upperBound...].drop { $0 == " " }.prefix { $0.isASCII && $0.isNumber }.prefix(9)
    return Int(digits).map { Clamp.forumNumber($0, atLeast: 1) }
  }
}
