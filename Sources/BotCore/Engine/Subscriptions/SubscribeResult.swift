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
  /// Why the backfill asked for queued nothing (the forum failed, or the commands' share of requests ran out), in
  /// words for chat; the subscription stands.
  package var backfillFailure: String?

  package init(
    subscription: Subscription, isNew: Bool, title: String?, addedBookmark: Bool, backfilled: Int,
    backfillFailure: String? = nil
  ) {
    self.subscription = subscription
    self.isNew = isNew
    self.title = title
    self.addedBookmark = addedBookmark
    self.backfilled = backfilled
    self.backfillFailure = backfillFailure
  }
}
