import BotStore
import ChatBridge
import ForumModel
import Foundation

/// Polls the bot account's bookmarks: finds the threads that moved since the last poll, reads their new posts and
/// relays them to the rooms that follow them (subscriptions and alerts), advancing each thread's cursor with its rows.
struct BookmarksPoll: Sendable {
  let database: BotDatabase
  let forum: any Forum
  let configuration: EngineConfiguration
  let outbox: OutboxWriter
  let now: @Sendable () -> Date

  /// Change detection as the design says: every bookmarks page (40 threads each) is read; only threads whose reply
  /// count or last-post time moved past the stored values are fetched, from the cursor's page on. Threads seen for
  /// the first time are seeded at their last post without a request. Each thread's rows and cursor commit together;
  /// an error stops the poll and leaves the remaining threads' stored values untouched, so the next poll retries.
  ///
  /// Each bookmarks page is compared with the store as it arrives, so a poll holds one page of listing and the
  /// changed threads, not the whole listing: with 20,000 bookmarks the whole listing and its stored rows were about
  /// a third of the bot's memory. What a page writes (seeds, titles, stars) moves no cursor, so a poll that fails
  /// on a later page still fetches nothing twice and misses nothing.
  func run(_ report: inout PollReport) async throws {
    var seen = Set<String>()
    var changed: [(ThreadListThread, ThreadRecord, Bool)] = []
    var page = 1
    var complete = false
    let now = now()
    let (subscriptions, hasAlerts) = try await database.read { tx in
      (
        try SubscriptionKind.threadKinds.flatMap { try tx.subscriptions(kind: $0) }
          .compactMap(Subscription.init(record:)),
        !(try tx.allAlerts().isEmpty)
      )
    }
    while page <= configuration.maximumBookmarkPages {
      report.requests += 1
      let result = try await forum.bookmarks(page: page)
      let fresh = result.threads.filter { seen.insert($0.id).inserted }
      if !fresh.isEmpty {
        changed += try await database.write { tx in
          try Self.compareBookmarks(
            fresh, in: tx, now: now, subscriptions: subscriptions, hasAlerts: hasAlerts)
        }
      }
      let total = result.page?.total ?? (result.threads.count >= forumPageSize ? page + 1 : page)
      let isLast = page >= total || result.threads.isEmpty
      configuration.bookmarksPageRead?(page, result.page?.total, isLast)
      if isLast {
        complete = true
        break
      }
      page += 1
    }
    if complete {
      let listed = seen
      try await database.write { tx in try tx.markUnbookmarked(allExcept: listed) }
    }
    report.changed = changed.count

    // Read every changed thread first, then relay them together so a room gets the poll's posts in the order they
    // were made across threads. A failed read stops reading; what was read before it is still relayed (its cursors
    // advance with its rows), and the error then fails the poll so the rest is retried.
    var updates: [(update: ThreadUpdate, wanted: Bool)] = []
    var readError: (any Error)?
    for (row, stored, wanted) in changed {
      var update = ThreadUpdate(
        threadID: row.id, title: row.title, forumID: stored.forumID, star: row.star, replyCount: row.replyCount,
        lastPostAt: row.lastPostDate, lastPostAuthor: row.lastPostAuthor, isClosed: row.isClosed, posts: [])
      if wanted {
        report.requests += 1
        do {
          let fetched = try await forum.posts(threadID: row.id, after: stored.cursorIndex)
          report.requests += max(fetched.pagesFetched - 1, 0)
          update.posts = fetched.posts
          update.title = fetched.threadTitle.isEmpty ? row.title : fetched.threadTitle
          update.forumID = fetched.forumID ?? stored.forumID
          report.newPosts += fetched.posts.count
        } catch {
          readError = error
          break
        }
      }
      updates.append((update, wanted))
    }

    let collector = RowCollector()
    let relay = outbox.relay(now: self.now(), collector: collector)
    let pending = updates
    let outcome = try await database.write { tx -> RelayOutcome in
      var held = 0
      for (update, wanted) in pending {
        held += try relay.relay(update, in: tx).held
        if !wanted {
          // Nobody follows it: move the cursor to the end without reading, so a later subscription starts there.
          if var thread = try tx.thread(id: update.threadID), thread.cursorIndex < update.replyCount + 1 {
            thread.cursorIndex = update.replyCount + 1
            thread.cursorPostID = nil
            try tx.save(thread)
          }
        }
      }
      var outcome = try collector.flush(in: tx)
      outcome.held = held
      return outcome
    }
    report.queued += outcome.queued + outcome.held
    EngineMetrics.postsRelayed(updates.reduce(0) { $0 + $1.update.posts.count })
    EngineMetrics.rowsQueued(outcome.queued, kind: .post)
    outbox.wakeDispatchers(outcome.transports)
    if let readError { throw readError }
    try await outbox.releaseHeld()
  }

  /// One bookmarks page against the store: seeds first-seen threads, refreshes titles, stars and closed flags, and
  /// returns the threads that moved (with their stored row and whether any room wants their posts).
  static func compareBookmarks(
    _ rows: [ThreadListThread], in tx: StoreTransaction, now: Date, subscriptions: [Subscription], hasAlerts: Bool
  ) throws -> [(ThreadListThread, ThreadRecord, Bool)] {
    let known = try tx.threads(ids: rows.map(\.id))
    var changed: [(ThreadListThread, ThreadRecord, Bool)] = []
    for row in rows {
      guard var stored = known[row.id] else {
        try tx.save(Self.seededThread(from: row, now: now))
        continue
      }
      // Dates round-trip through SQLite at millisecond precision (the forum shows minutes): a later time must
      // be later by more than that to count as movement, or a thread would be fetched on every poll.
      let moved =
        row.replyCount > stored.replyCount
        || (row.lastPostDate.map { date in stored.lastPostAt.map { date.timeIntervalSince($0) > 0.5 } ?? true }
          ?? false)
      if moved {
        let wanted = hasAlerts || subscriptions.contains { $0.target.covers(threadID: row.id, star: row.star) }
        changed.append((row, stored, wanted))
      }
      let star = row.star?.rawValue
      if !stored.isBookmarked || stored.star != star || stored.title != row.title || stored.isClosed != row.isClosed {
        stored.isBookmarked = true
        stored.star = star
        stored.title = row.title
        stored.isClosed = row.isClosed
        stored.updatedAt = now
        try tx.save(stored)
      }
    }
    return changed
  }

  /// A thread first seen in a thread list: the cursor sits at its last post (reply count + OP), so nothing
  /// already posted is relayed and no request is needed.
  static func seededThread(from row: ThreadListThread, now: Date) -> ThreadRecord {
    ThreadRecord(
      id: row.id, title: row.title, replyCount: row.replyCount, lastPostAt: row.lastPostDate,
      lastPostAuthor: row.lastPostAuthor, cursorIndex: row.postCount, isBookmarked: true, star: row.star?.rawValue,
      isClosed: row.isClosed, firstSeenAt: now, updatedAt: now)
  }
}
