import BotStore

/// A message the bot sent to a room, found again by the chat service's id for it or by its short reference: what
/// it shows, so an answer to it can become a forum reply (or be told why it cannot).
package struct RelayedMessage: Sendable, Hashable {
  package var kind: OutboxKind
  /// The thread it is about, when it is about one.
  package var threadID: String?
  /// The post it shows (a summary: the newest it names; an alert: the post that matched); nil for messages that
  /// show none (announcements, digests, answers).
  package var postID: String?
  /// The chat service's id of the message, once sent.
  package var receipt: String?
  /// Its short reference (`r7`), where it carries one.
  package var reference: String?
  /// For an answer to a command: the id of the command message it answered.
  package var answeredMessageID: String?

  /// Whether answering it can start a forum reply.
  package var showsPost: Bool { postID != nil && threadID != nil && kind != .answer }
}
