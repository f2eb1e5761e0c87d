import GRDB

/// What an outbox row carries. Stored as its raw value (the same text the column always held), so no migration.
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
  case thread
  /// An answer to a command.
  case reply
  /// A private message to the bot account, told in the rooms configured for it.
  case privateMessage
}
