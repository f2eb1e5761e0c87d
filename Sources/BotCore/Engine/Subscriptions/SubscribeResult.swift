/// What `subscribe` or `watch` did.
package struct SubscribeResult: Sendable, Hashable {
  package var subscription: Subscription
  /// False when the room already had this subscription (its filters were updated).
  package var isNew: Bool
  /// The thread or forum title when known.
  package var title: String?
  /// `watch` bookmarked the thread on the forum (it was not bookmarked before).
  package var addedBookmark: Bool
  /// Posts (or announcements, threads) queued by `backfill`.
  package var backfilled: Int

  package init(subscription: Subscription, isNew: Bool, title: String?, addedBookmark: Bool, backfilled: Int) {
    self.subscription = subscription
    self.isNew = isNew
    self.title = title
    self.addedBookmark = addedBookmark
    self.backfilled = backfilled
  }
}
