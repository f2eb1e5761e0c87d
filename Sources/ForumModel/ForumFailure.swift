/// An error from the forum side whose description is already a sentence for a person (what happened and what to
/// do), so the engine can show it as it is without knowing the client that threw it.
package protocol ForumFailure: Error, CustomStringConvertible {
  /// The forum says what was asked for does not exist: the asker's mistake, not a failure of the bot.
  var isNotFound: Bool { get }
  /// The forum refused to take a post (flood check, closed thread, probation), in its own words; nil for any other
  /// failure.
  var postingRefusal: PostingRefusal? { get }
  /// Something in front of the forum answered instead of it (a Cloudflare challenge, a rate limit, maintenance);
  /// nil for any other failure.
  var wall: ForumWall? { get }
}

extension ForumFailure {
  package var isNotFound: Bool { false }
  package var postingRefusal: PostingRefusal? { nil }
  package var wall: ForumWall? { nil }
}

/// The forum says what was asked for does not exist, or the account cannot see it (the forum does not tell the two
/// apart): "Specified thread was not found", "Invalid post specified", "Invalid forum specified", "Invalid private
/// message specified".
package struct ForumNotFound: ForumFailure, Sendable, Hashable, Codable {
  package enum Subject: String, Sendable, Hashable, Codable {
    case thread, post, forum
    case privateMessage = "private message"
  }

  package var subject: Subject
  /// The forum's own words.
  package var message: String

  package init(subject: Subject, message: String) {
    self.subject = subject
    self.message = message
  }

  /// Recognises the forum's not-found error pages by their message; nil for any other error page.
  package init?(errorMessage message: String) {
    let lowered = message.lowercased()
    if lowered.contains("thread was not found") || lowered.contains("invalid thread") {
      self.init(subject: .thread, message: message)
    } else if lowered.contains("invalid post") || lowered.contains("post was not found") {
      self.init(subject: .post, message: message)
    } else if lowered.contains("invalid forum") || lowered.contains("forum was not found") {
      self.init(subject: .forum, message: message)
    } else if lowered.contains("invalid private message") {
      self.init(subject: .privateMessage, message: message)
    } else {
      return nil
    }
  }

  package var description: String {
    if subject == .privateMessage {
      return "The bot's forum account has no private message with that id (deleted, or never sent to it)."
    }
    if subject == .forum {
      return "No forum with that id, or the bot's forum account cannot see it."
    }
    return "No such \(subject.rawValue) on the forum, or the bot's forum account cannot see it."
  }

  package var isNotFound: Bool { true }
}
