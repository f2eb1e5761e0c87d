import BotStore
import ChatBridge
import ForumModel
import Foundation
import Logging

/// Polls the bot account's bookmarks: finds the threads that moved since the last poll, reads their new posts and
/// relays them to the rooms that follow them (subscriptions and alerts), advancing each thread's cursor with its rows.
struct BookmarksPoll: Sendable {
  let database: BotDatabase
  let forum: any Forum
  let configuration: EngineConfiguration
  let schedule: PollSchedule
  let outbox: OutboxWriter
  let logger: Logger
  let now: @Sendable () -> Date

  /// A thread the list shows moved, with its stored row and whether any room wants its posts.
  typealias Change = (row: ThreadListThread, stored: ThreadRecord, wanted: Bool)

  /// One bookmarks page against the store.
  struct PageComparison {
    var changed: [Change] = []
    /// The page shows a thread the store knows, unmoved, whose last post is older than the check's threshold.
    var holdsSettledThread = false
  }

  /// How a poll reads the list.
  enum Reading: Equatable {
    /// From page 1 down to the first page that shows a settled thread older than `threshold`.
    case check(threshold: Date)
    /// Every page, to the end.
    case sweep
  }

  /// Change detection from the top of the list. The forum lists bookmarks newest last post first, so a thread that
  /// got a post since the last poll is near the top: a check reads from page 1 and stops after the first page that
  /// shows a settled thread (known, same reply count and last-post time) older than the last poll's newest last post
  /// less `listOrderMargin` (see `ThreadListMark`). A quiet check costs one request whatever the account's size.
  /// Only threads whose reply count or last-post time moved past the stored values are fetched, from the cursor's
  /// page on; threads seen for the first time are seeded at their last post without a request.
  ///
  /// Every page's order is verified; a page out of order makes the poll a full sweep (the pages already read stand)
  /// and the log says so once. A full sweep also runs when `bookmarksFullSweepInterval` has passed, and at the first
  /// poll: only it notices a bookmark added or removed on the web, or a deleted post (a thread whose reply count or
  /// last post went back), since such a thread does not come to the top.
  ///
  /// Each thread's rows and cursor commit together; an error stops the poll and leaves the remaining threads' stored
  /// values and the list's mark untouched, so the next poll reads as far again and misses nothing. Each page is
  /// compared with the store as it arrives, so a poll holds one page of listing and the changed threads, not the
  /// whole listing (with 20,000 bookmarks the listing and its rows were a third of the bot's memory).
  func run(_ report: inout PollReport) async throws {
    let now = now()
    let (subscriptions, hasAlerts, mark) = try await database.read { tx in
      (
        try SubscriptionKind.threadKinds.flatMap { try tx.subscriptions(kind: $0) }
          .compactMap(Subscription.init(record:)),
        !(try tx.allAlerts().isEmpty),
        try ThreadListMark.load(in: tx, key: ThreadListMark.bookmarksKey)
      )
    }
    var reading = reading(after: mark, now: now)
    var order = ThreadListOrder(skipsStickies: false)
    var seen = Set<String>()
    var changed: [Change] = []
    var newestOnFirstPage: Date?
    var page = 1
    var complete = false
    while page <= configuration.maximumBookmarkPages {
      report.requests += 1
      report.listPages += 1
      let result = try await forum.bookmarks(page: page)
      if page == 1 { newestOnFirstPage = result.threads.compactMap(\.lastPostDate).max() }
      if !order.check(result.threads, page: page), case .check = reading {
        reading = .sweep
      }
      let threshold: Date? = if case .check(let threshold) = reading { threshold } else { nil }
      let fresh = result.threads.filter { seen.insert($0.id).inserted }
      var comparison = PageComparison()
      if !fresh.isEmpty {
        comparison = try await database.write { tx in
          try Self.compareBookmarks(
            fresh, in: tx, now: now, subscriptions: subscriptions, hasAlerts: hasAlerts, settledBefore: threshold)
        }
      }
      changed += comparison.changed
      let total = result.page?.total ?? (result.threads.count >= forumPageSize ? page + 1 : page)
      let isLast = page >= total || result.threads.isEmpty
      let settles = threshold != nil && comparison.holdsSettledThread
      configuration.bookmarksPageRead?(page, result.page?.total, isLast || settles)
      if isLast {
        complete = true
        break
      }
      if settles { break }
      page += 1
    }
    report.fullSweep = complete
    report.listUnordered = !order.isIntact
    report.changed = changed.count
    try await noteOrder(order, mark: mark, now: now)
    if complete {
      let listed = seen
      try await database.write { tx in try tx.markUnbookmarked(allExcept: listed) }
    }

    // Read every changed thread first, then relay them together so a room gets the poll's posts in the order they
    // were made across threads. A failed read stops reading; what was read before it is still relayed (its cursors
    // advance with its rows), and the error then fails the poll so the rest is retried.
    var updates: [(update: ThreadUpdate, wanted: Bool, cursor: Int?)] = []
    var readError: (any Error)?
    for (row, stored, wanted) in changed {
      var update = ThreadUpdate(
        threadID: row.id, title: row.title, forumID: stored.forumID, star: row.star, replyCount: row.replyCount,
        lastPostAt: row.lastPostDate, lastPostAuthor: row.lastPostAuthor, isClosed: row.isClosed, posts: [])
      var cursor: Int?
      if wanted {
        do {
          let read = try await NewPostsReader(forum: forum).read(
            threadID: row.id, postCount: row.postCount, cursorIndex: stored.cursorIndex,
            cursorPostID: stored.cursorPostID)
          report.requests += read.requests
          update.posts = read.posts
          update.seenAgain = read.seenAgain
          cursor = read.rebasedCursor
          update.title = read.threadTitle.isEmpty ? row.title : read.threadTitle
          update.forumID = read.forumID ?? stored.forumID
          report.newPosts += update.posts.count
        } catch let failure as any ForumFailure where failure.isNotFound {
          // Listed, yet the forum will not show it (deleted, or moved where the account cannot see): failing the
          // poll would retry it at every poll and hold back the threads after it. Its list values are taken so it
          // no longer counts as moved; its cursor stays, so once it can be read its posts since then are relayed.
          report.requests += 1
          logger.warning(
            "bookmarked thread cannot be read: its posts wait until it can",
            metadata: ["thread": "\(row.id)", "title": "\(row.title)", "error": "\(failure)"])
        } catch {
          report.requests += 1
          readError = error
          break
        }
      }
      updates.append((update, wanted, cursor))
    }

    let collector = RowCollector()
    let relay = outbox.relay(now: self.now(), collector: collector)
    let pending = updates
    // The mark moves only when every changed thread was read: the next check then stops no higher than this one.
    let nextMark =
      readError == nil
      ? ThreadListMark(
        newestLastPost: newestOnFirstPage ?? mark?.newestLastPost,
        lastFullSweep: complete ? now : mark?.lastFullSweep, isOrdered: order.isIntact)
      : nil
    let outcome = try await database.write { tx -> RelayOutcome in
      var held = 0
      for (update, wanted, cursor) in pending {
        if let cursor, var thread = try tx.thread(id: update.threadID), thread.cursorIndex != cursor {
          thread.cursorIndex = cursor
          try tx.save(thread)
        }
        held += try relay.relay(update, in: tx).held
        if !wanted {
          // Nobody follows it: move the cursor to the end without reading, so a later subscription starts there.
          if var thread = try tx.thread(id: update.threadID), thread.cursorIndex != update.replyCount + 1 {
            thread.cursorIndex = update.replyCount + 1
            thread.cursorPostID = nil
            try tx.save(thread)
          }
        }
      }
      if let nextMark { try nextMark.save(in: tx, key: ThreadListMark.bookmarksKey, now: now) }
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

  /// A check from the top when the list has been read before, was in order, and the full sweep is not due; a full
  /// sweep otherwise.
  func reading(after mark: ThreadListMark?, now: Date) -> Reading {
    guard let mark, mark.isOrdered, let newest = mark.newestLastPost, let swept = mark.lastFullSweep,
      now.timeIntervalSince(swept) < schedule.current.bookmarksFullSweep.timeInterval
    else { return .sweep }
    return .check(threshold: newest.addingTimeInterval(-configuration.listOrderMargin.timeInterval))
  }

  /// Says once, when it changes, whether the list is newest-first: a list out of order makes every poll a full
  /// sweep, and a line at every poll would drown the log. The flag is stored at once, so a poll that fails later
  /// does not say it again.
  private func noteOrder(_ order: ThreadListOrder, mark: ThreadListMark?, now: Date) async throws {
    let wasOrdered = mark?.isOrdered ?? true
    guard order.isIntact != wasOrdered else { return }
    if let brokeAt = order.brokeAt {
      logger.warning(
        "bookmarks list is not newest-first: reading all of it at every poll until it is",
        metadata: ["page": "\(brokeAt.page)", "row": "\(brokeAt.row)"])
    } else {
      logger.notice("bookmarks list is newest-first again: polls read from the top")
    }
    var stored = mark ?? ThreadListMark()
    stored.isOrdered = order.isIntact
    try await database.write { [stored] tx in try stored.save(in: tx, key: ThreadListMark.bookmarksKey, now: now) }
  }

  /// One bookmarks page against the store: seeds first-seen threads, refreshes titles, stars and closed flags,
  /// takes back a thread that lost posts (its cursor to its last post, so the next post, which takes a freed index,
  /// is relayed), and returns the threads that moved (with their stored row and whether any room wants their posts)
  /// and whether the page shows a settled thread with a last post before `settledBefore`.
  static func compareBookmarks(
    _ rows: [ThreadListThread], in tx: StoreTransaction, now: Date, subscriptions: [Subscription], hasAlerts: Bool,
    settledBefore threshold: Date? = nil
  ) throws -> PageComparison {
    let known = try tx.threads(ids: rows.map(\.id))
    var comparison = PageComparison()
    for row in rows {
      guard var stored = known[row.id] else {
        try tx.save(Self.seededThread(from: row, now: now))
        continue
      }
      // Dates round-trip through SQLite at millisecond precision (the forum shows minutes): a time must differ by
      // more than that to count as movement, or a thread would be fetched on every poll.
      let shift = row.lastPostDate.map { date in stored.lastPostAt.map { date.timeIntervalSince($0) } ?? 1 } ?? 0
      let moved = row.replyCount > stored.replyCount || shift > 0.5
      let wentBack = !moved && (row.replyCount < stored.replyCount || shift < -0.5)
      var dirty = false
      if moved {
        let wanted = hasAlerts || subscriptions.contains { $0.target.covers(threadID: row.id, star: row.star) }
        comparison.changed.append((row, stored, wanted))
      } else if wentBack {
        stored.replyCount = row.replyCount
        stored.lastPostAt = row.lastPostDate ?? stored.lastPostAt
        stored.lastPostAuthor = row.lastPostAuthor ?? stored.lastPostAuthor
        stored.cursorIndex = min(stored.cursorIndex, row.postCount)
        dirty = true
      } else if let threshold, let date = row.lastPostDate, date < threshold {
        comparison.holdsSettledThread = true
      }
      let star = row.star?.rawValue
      if dirty || !stored.isBookmarked || stored.star != star || stored.title != row.title
        || stored.isClosed != row.isClosed
      {
        stored.isBookmarked = true
        stored.star = star
        stored.title = row.title
        stored.isClosed = row.isClosed
        stored.updatedAt = now
        try tx.save(stored)
      }
    }
    return comparison
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
