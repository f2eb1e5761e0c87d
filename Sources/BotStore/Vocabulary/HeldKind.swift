import GRDB

/// What a held item is. Stored as its raw value.
package enum HeldKind: String, Sendable, Hashable, Codable, CaseIterable, DatabaseValueConvertible {
  /// A post (payload: the post), released as part of a digest.
  case post
  /// A ready message (payload: the message with its key), released as it is.
  case message
  /// A Leper's Colony entry (payload: the entry; `postID` holds its identity), released as part of a digest.
  case punishment
}
