/// How an account's bookmarks page sorts its threads. The forum's own order is newest last post first, which the
/// bot relies on to stop reading early; the others stand for a sort preference on the account (or a change on the
/// forum's side), so tests can check that the bot notices a list out of that order and reads all of it.
package enum BookmarkOrder: String, Sendable, Hashable, Codable, CaseIterable {
  /// Newest last post first (the forum's order).
  case lastPost
  /// By thread title, A to Z.
  case title
  /// Oldest thread first (by id).
  case threadID
}
