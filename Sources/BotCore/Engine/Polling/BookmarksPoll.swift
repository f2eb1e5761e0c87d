import BotStore
import ChatBridge
import ForumModel
import Foundation
import Logging

/// Polls the bot account's bookmarks: finds the threads that moved since the last poll, reads their new posts and
/// relays them to the rooms that follow them (subscriptions and alerts), advancing each thread's cursor with its rows.
struct BookmarksPoll: EnginePart {
  let context: EngineContext
  let schedule: PollSchedule
  let outbox: OutboxWriter

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
    /// Every page, to the end, in this poll.
    case sweep
  }

  /// Change detection from the top of the list. The forum lists bookmarks newest last post first, so a thread that
  /// got a post since the last poll is near the top: a check reads from page 1 and stops after the first page that
  /// shows a settled thread (known, same reply count and last-post time) older than the last poll's newest last post
  /// less `listOrderMargin` (see `ThreadListMark`). A quiet check costs one request whatever the account's size.
  /// Only threads whose reply count or last-post time moved past the stored values are fetched, from the cursor's
  /// page on; threads seen for the first time are seeded at their last post without a request.
  ///
  /// Every page's order is verified; a page out of order makes the poll read the whole list (the pages already read
  /// stand) and the log says so once. The first poll reads the whole list too. The full sweep that notices what does
  /// not come to the top (a bookmark added or removed on the web, a deleted post) is due every
  /// `bookmarksFullSweepInterval`: a check that finds it due starts it, and the poller reads it a page at a time when
  /// no check is due (`sweepStep`), so no change waits behind it. An interval of zero reads the whole list at every
  /// poll, the schedule before checks from the top.
  ///
  /// Each thread's rows and cursor commit together; an error stops the poll and leaves the remaining threads' stored
  /// values and the list's mark untouched, so the next poll reads as far again and misses nothing. Each page is
  /// compared with the store as it arrives, so a poll holds one page of listing and the changed threads, not the
  /// whole listing (with 20,000 bookmarks the listing and its rows were a third of the bot's memory).
  func run(_ report: inout PollReport) async throws {
    let now = now()
    let (followers, mark, sweep) = try await database.read { tx in
      (
        try Followers.load(in: tx), try ThreadListMark.load(in: tx, key: ThreadListMark.bookmarksKey),
        try tx.bookmarksSweep()
      )
    }
    var reading = reading(after: mark)
    var order = ThreadListOrder(skipsStickies: false)
    var seen = Set<String>()
    var changed: [Change] = []
    var newestOnFirstPage: Date?
    var page = 1
    var lastPageRead = 0
    var complete = false
    while page <= configuration.maximumBookmarkPages {
      lastPageRead = page
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
          try Self.compareBookmarks(fresh, in: tx, now: now, followers: followers, settledBefore: threshold)
        }
      }
      changed += comparison.changed
      let isLast = result.isLastPage(page)
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
      // Every page was read at `now`: a bookmarked thread none of them listed is no longer bookmarked, and a sweep
      // in progress has nothing left to do.
      try await database.write { tx in
        try tx.markUnbookmarked(ids: try tx.bookmarkedThreadIDs(notListedSince: now))
        try tx.removeBookmarksSweep()
      }
    }
    // A check that finds the full sweep due starts it after the pages it read itself; so does a poll that read the
    // whole list until it met `maximumBookmarkPages` (the first, of an account with more than 8,000 bookmarks): the
    // rest is read a page at a time, between checks, and no thread of it is left unknown.
    let startsSweep =
      !complete && sweep == nil && order.isIntact
      && mark?.lastFullSweep.map { now.timeIntervalSince($0) >= schedule.current.bookmarksFullSweep.timeInterval }
        ?? true
    let pagesRead = lastPageRead
    let next = ThreadListMark(
      newestLastPost: newestOnFirstPage ?? mark?.newestLastPost,
      lastFullSweep: complete ? now : mark?.lastFullSweep, isOrdered: order.isIntact)
    let (readError, _) = try await relay(changed, followers: followers, report: &report) { tx, readAll in
      // The mark moves only when every changed thread was read: the next check then stops no higher than this one.
      guard readAll else { return }
      try next.save(in: tx, key: ThreadListMark.bookmarksKey, now: now)
      if startsSweep {
        try tx.save(BookmarksSweepRecord(startedAt: now, nextPage: pagesRead + 1, updatedAt: now))
      }
    }
    if let readError { throw readError }
    try await outbox.releaseHeld()
  }

  /// One step of the full sweep in progress, taken by the poller when no check is due: the next bookmarks page,
  /// compared with the store like a check's; or, once every page is read, one thread no page listed, confirmed on
  /// its own page before it is taken as unbookmarked. A step is one request (and the thread pages of a moved
  /// thread, which a newest-first list shows at its top, so a sweep page rarely has one), so a check that falls due
  /// meanwhile waits for no more than that request. Returns false when no sweep is in progress.
  func sweepStep(_ report: inout PollReport) async throws -> Bool {
    let now = now()
    // The poller asks whenever it is idle: without a sweep in progress this is the only read.
    guard let sweep = try await database.read({ tx in try tx.bookmarksSweep() }) else { return false }
    if let threadID = sweep.unlisted.first {
      try await confirmUnlisted(threadID, sweep: sweep, report: &report, now: now)
      return true
    }
    let (followers, mark) = try await database.read { tx in
      (try Followers.load(in: tx), try ThreadListMark.load(in: tx, key: ThreadListMark.bookmarksKey))
    }
    let page = sweep.nextPage
    report.requests += 1
    report.listPages += 1
    let result = try await forum.bookmarks(page: page)
    var order = ThreadListOrder(skipsStickies: false)
    _ = order.check(result.threads, page: 1)
    let comparison = try await database.write { tx in
      try Self.compareBookmarks(result.threads, in: tx, now: now, followers: followers)
    }
    let isLast = result.isLastPage(page) || page >= configuration.maximumSweepPages
    configuration.bookmarksPageRead?(page, result.page?.total, isLast)
    report.changed = comparison.changed.count
    try await noteOrder(order, mark: mark, now: now)
    let logger = logger
    let (readError, finished) = try await relay(comparison.changed, followers: followers, report: &report) {
      tx, readAll -> Bool in
      // A thread that could not be read is read again with this page.
      guard readAll else { return false }
      var next = sweep
      next.updatedAt = now
      if !isLast {
        next.nextPage += 1
        try tx.save(next)
        return false
      }
      next.unlisted = try tx.bookmarkedThreadIDs(notListedSince: sweep.startedAt)
      if next.unlisted.isEmpty {
        try Self.finish(next, in: tx, now: now, logger: logger)
        return true
      }
      try tx.save(next)
      return false
    }
    if let readError { throw readError }
    report.fullSweep = finished
    try await outbox.releaseHeld()
    return true
  }

  /// Asks a thread's first page whether the account still bookmarks it (its bookmark button says), after no page of
  /// the sweep listed it: only a "no" (or a thread that is gone) takes it off the bookmarks. A page that shows no
  /// button says nothing, and the thread stays as it is.
  private func confirmUnlisted(
    _ threadID: String, sweep: BookmarksSweepRecord, report: inout PollReport, now: Date
  ) async throws {
    report.requests += 1
    let bookmarked: Bool?
    do {
      bookmarked = try await forum.threadPage(threadID: threadID, page: .number(1)).isBookmarked
    } catch let failure as any ForumFailure where failure.isNotFound {
      bookmarked = false
    }
    if bookmarked == false {
      logger.info("bookmark removed on the forum", metadata: ["thread": "\(threadID)"])
    }
    var next = sweep
    next.unlisted.removeFirst()
    next.updatedAt = now
    report.fullSweep = next.unlisted.isEmpty
    let logger = logger
    try await database.write { [next] tx in
      if bookmarked == false {
        try tx.markUnbookmarked(ids: [threadID])
      } else {
        try tx.markListed(ids: [threadID], at: now)
      }
      if next.unlisted.isEmpty {
        try Self.finish(next, in: tx, now: now, logger: logger)
      } else {
        try tx.save(next)
      }
    }
  }

  /// Ends the sweep: the next is due a full-sweep interval after this one began.
  private static func finish(_ sweep: BookmarksSweepRecord, in tx: StoreTransaction, now: Date, logger: Logger)
    throws
  {
    var mark = try ThreadListMark.load(in: tx, key: ThreadListMark.bookmarksKey) ?? ThreadListMark()
    mark.lastFullSweep = sweep.startedAt
    try mark.save(in: tx, key: ThreadListMark.bookmarksKey, now: now)
    try tx.removeBookmarksSweep()
    logger.debug(
      "bookmarks full sweep finished",
      metadata: ["pages": "\(sweep.nextPage)", "seconds": "\(Int(now.timeIntervalSince(sweep.startedAt)))"])
  }

  /// Who follows the bookmarks' posts: the thread subscriptions and whether any room has alerts.
  struct Followers: Sendable {
    var subscriptions: [Subscription]
    var hasAlerts: Bool

    static func load(in tx: StoreTransaction) throws -> Followers {
      Followers(
        subscriptions: try SubscriptionKind.threadKinds.flatMap { try tx.subscriptions(kind: $0) }
          .compactMap(Subscription.init(record:)),
        hasAlerts: !(try tx.allAlerts().isEmpty))
    }

    func want(_ row: ThreadListThread) -> Bool {
      hasAlerts || subscriptions.contains { $0.target.covers(threadID: row.id, star: row.star) }
    }
  }

  /// Reads every changed thread first, then relays them together so a room gets the posts in the order they were
  /// made across threads, and runs `commit` in the same transaction (with whether every thread was read), returning
  /// what it returned. A failed read stops reading; what was read before it is still relayed (its cursors advance
  /// with its rows), and the error is returned so the caller fails the poll and the rest is retried.
  private func relay<Committed: Sendable>(
    _ changed: [Change], followers: Followers, report: inout PollReport,
    commit: @escaping @Sendable (StoreTransaction, _ readAll: Bool) throws -> Committed
  ) async throws -> (readError: (any Error)?, committed: Committed) {
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
    let readAll = readError == nil
    let (outcome, committed) = try await database.write { tx -> (RelayOutcome, Committed) in
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
      let committed = try commit(tx, readAll)
      var outcome = try collector.flush(in: tx)
      outcome.held = held
      return (outcome, committed)
    }
    report.queued += outcome.queued + outcome.held
    EngineMetrics.postsRelayed(updates.reduce(0) { $0 + $1.update.posts.count })
    EngineMetrics.rowsQueued(outcome.queued, kind: .post)
    outbox.wakeDispatchers(outcome.transports)
    return (readError, committed)
  }

  /// A check from the top when the list has been read before and was in order; the whole list otherwise (the first
  /// poll, a list out of order, or a full-sweep interval of zero).
  func reading(after mark: ThreadListMark?) -> Reading {
    guard let mark, mark.isOrdered, let newest = mark.newestLastPost, schedule.current.bookmarksFullSweep > .zero
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
  /// and whether the page shows a settled thread with a last post before `settledBefore`. Every row is stamped as
  /// listed at `now`.
  static func compareBookmarks(
    _ rows: [ThreadListThread], in tx: StoreTransaction, now: Date, followers: Followers,
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
        comparison.changed.append((row, stored, followers.want(row)))
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
    // Last, so no row saved above from the earlier read takes back the stamp.
    try tx.markListed(ids: rows.map(\.id), at: now)
    return comparison
  }

  /// A thread first seen in a thread list: the cursor sits at its last post (reply count + OP), so nothing
  /// already posted is relayed and no request is needed.
  static func seededThread(from row: ThreadListThread, now: Date) -> ThreadRecord {
    ThreadRecord(
      id: row.id, title: row.title, replyCount: row.replyCount, lastPostAt: row.lastPostDate,
      lastPostAuthor: row.lastPostAuthor, cursorIndex: row.postCount, isBookmarked: true, star: row.star?.rawValue,
      isClosed: row.isClosed, firstSeenAt: now, updatedAt: now, listedAt: now)
  }
}
