import GRDB

/// What an outbox row carries, named as ChatBridge names the message (`.answer`, `.newThread`). Stored as its raw
/// value, the text the column has always held ("reply", "thread"), so rows already queued need no migration.
package enum OutboxKind: String, Sendable, Hashable, Codable, CaseIterable, DatabaseValueConvertible {
  /// One relayed post.
  case post
  /// Posts of one thread told as a count (summary mode, the rest after a replay cap, a room far behind).
  case summary
  /// What a quiet room or a digest room missed, one line per thread.
  case digest
  /// A post that quotes or mentions a name the room asked about.
  case alert
  case announcement
  /// A new thread in a forum the room follows.
  case newThread = "thread"
  /// An answer to a command.
  case answer = "reply"
  /// A private message to the bot account, told in the rooms configured for it.
  case privateMessage
  /// A relayed post edited on the forum: the relay replaced by its new text (transports with edits).
  case edit
  /// A relayed post deleted on the forum: the relay taken back (transports that can remove their messages).
  case redaction
  /// A new Leper's Colony entry, or the count of those past a room's replay cap.
  case punishment
}
