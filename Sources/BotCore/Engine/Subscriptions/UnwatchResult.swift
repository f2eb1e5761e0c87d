/// What `unwatch` did.
package struct UnwatchResult: Sendable, Hashable {
  /// The subscription removed.
  package var removed: Subscription
  /// The bot had bookmarked the thread for the watch and no other room watches it, so the bookmark was removed.
  package var removedBookmark: Bool

  package init(removed: Subscription, removedBookmark: Bool) {
    self.removed = removed
    self.removedBookmark = removedBookmark
  }
}
