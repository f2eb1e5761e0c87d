import ChatBridge

/// What the bot does about a reaction: say something, react back on the message to show it acted, remove a
/// message. All empty for a reaction that asks nothing of the bot.
package struct ReactionOutcome: Sendable, Hashable {
  /// Words to say (a refusal with the role needed, a posted reply), answering the reaction.
  package var answer: OutgoingMessage?
  /// The key to react with on the message reacted to (`✅`: done).
  package var acknowledgement: String?
  /// One of the bot's messages to remove (a relay an admin took down).
  package var redaction: String?

  package init(answer: OutgoingMessage? = nil, acknowledgement: String? = nil, redaction: String? = nil) {
    self.answer = answer
    self.acknowledgement = acknowledgement
    self.redaction = redaction
  }

  package static let nothing = ReactionOutcome()
}
