import BotStore
import ChatBridge
import ForumModel
import Foundation

extension BotEngine {
  /// Polls one source now: reads the forum, relays what is new, and records the outcome in the source's health
  /// (with the backoff after an error). Never throws: an error is an error for this poll — logged, counted and
  /// visible in `health()` — and never read as "nothing new".
  @discardableResult
  package func poll(_ source: PollSource) async -> PollReport {
    var report = PollReport(source: source)
    let started = now()
    let clock = ContinuousClock()
    let startedInstant = clock.now
    do {
      switch source {
      case .bookmarks: try await pollBookmarks(&report)
      case .announcements: try await pollAnnouncements(&report)
      case .forum(let id): try await pollForum(id: id, &report)
      case .privateMessages: try await pollPrivateMessages(&report)
      }
    } catch {
      report.error = Self.describe(error)
      // Shutdown interrupted the poll: not a forum failure, so no error in the source's health, no backoff and no
      // warning (the transport that stopped the bot has the message that matters).
      if Task.isCancelled {
        logger.debug("poll interrupted by shutdown", metadata: ["source": "\(source)"])
        return report
      }
    }
    EngineMetrics.pollDuration(clock.now - startedInstant, source: source.name)
    EngineMetrics.forumRequests(report.requests, source: source.name)
    EngineMetrics.poll(source: source.name, outcome: report.succeeded ? "success" : "error")
    do {
      report.nextAttempt = try await recordHealth(of: report, startedAt: started)
    } catch {
      logger.error("could not record poll health", metadata: ["source": "\(source)", "error": "\(error)"])
    }
    if let error = report.error {
      logger.warning(
        "poll failed",
        metadata: ["source": "\(source)", "error": "\(error)", "requests": "\(report.requests)"])
    } else {
      logger.debug(
        "poll finished",
        metadata: [
          "source": "\(source)", "requests": "\(report.requests)", "changed": "\(report.changed)",
          "queued": "\(report.queued)",
        ])
    }
    return report
  }

  /// Every source the poller should run: bookmarks, announcements while some room follows them, each forum some
  /// room follows, and the private-message inbox while rooms are configured for it.
  package func pollSources() async throws -> [PollSource] {
    let (forums, announcements) = try await database.read { tx in
      (Set(try tx.subscriptions(kind: .forum).map(\.argument)), !(try tx.subscriptions(kind: .announcements).isEmpty))
    }
    return [.bookmarks] + (announcements ? [.announcements] : []) + forums.sorted().map { .forum(id: $0) }
      + (privateMessageRooms.isEmpty ? [] : [.privateMessages])
  }

  /// Releases held items that are due (quiet hours over, digest time reached). Returns rows queued.
  @discardableResult
  package func releaseHeld() async throws -> Int {
    let relay = Relay(engine: self, now: now())
    let outcome = try await database.write { tx in try relay.releaseHeld(in: tx) }
    wakeDispatchers(outcome.transports)
    EngineMetrics.rowsQueued(outcome.queued, kind: .digest)
    return outcome.queued
  }

  // MARK: Bookmarks

  /// Change detection as the design says: every bookmarks page (40 threads each) is read; only threads whose reply
  /// count or last-post time moved past the stored values are fetched, from the cursor's page on. Threads seen for
  /// the first time are seeded at their last post without a request. Each thread's rows and cursor commit together;
  /// an error stops the poll and leaves the remaining threads' stored values untouched, so the next poll retries.
  ///
  /// Each bookmarks page is compared with the store as it arrives, so a poll holds one page of listing and the
  /// changed threads, not the whole listing: with 20,000 bookmarks the whole listing and its stored rows were about
  /// a third of the bot's memory. What a page writes (seeds, titles, stars) moves no cursor, so a poll that fails
  /// on a later page still fetches nothing twice and misses nothing.
  private func pollBookmarks(_ report: inout PollReport) async throws {
    var seen = Set<String>()
    var changed: [(ThreadListThread, ThreadRecord, Bool)] = []
    var page = 1
    var complete = false
    let now = now()
    let (subscriptions, hasAlerts) = try await database.read { tx in
      (
        try SubscriptionKind.threadKinds.flatMap { try tx.subscriptions(kind: $0) }
          .compactMap(BotEngine.subscription(from:)),
        !(try tx.allAlerts().isEmpty)
      )
    }
    while page <= configuration.maximumBookmarkPages {
      report.requests += 1
      let result = try await forum.bookmarks(page: page)
      let fresh = result.threads.filter { seen.insert($0.id).inserted }
      if !fresh.isEmpty {
        changed += try await database.write { tx in
          try BotEngine.compareBookmarks(
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
    let relay = Relay(engine: self, now: self.now(), collector: collector)
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
    wakeDispatchers(outcome.transports)
    if let readError { throw readError }
    try await releaseHeld()
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
        try tx.save(BotEngine.seededThread(from: row, now: now))
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

  // MARK: Announcements

  /// Reads the announcements; a hash not seen before goes to every room subscribed to announcements. The very first
  /// poll only records the hashes (no flood of old announcements).
  private func pollAnnouncements(_ report: inout PollReport) async throws {
    let set = try await AnnouncementSet.fetch(from: forum, requests: &report.requests)
    let relay = Relay(engine: self, now: now())
    let composer = composer
    let transports = transports
    let now = now()
    let (outcome, fresh) = try await database.write { tx -> (RelayOutcome, Int) in
      // "2": announcements known by author and body (see `AnnouncementHash`). Hashes of the earlier scheme (with
      // the title) never match, so after an upgrade the current ones are recorded again without being relayed.
      let isSeeded = try tx.value(namespace: "engine", key: "announcementsSeeded") == AnnouncementHash.scheme
      let rooms = try tx.subscriptions(kind: .announcements).compactMap(BotEngine.subscription(from:))
      var outcome = RelayOutcome()
      var fresh = 0
      for item in set.items where !(try tx.hasSeenAnnouncement(hash: item.hash)) {
        fresh += 1
        try tx.markAnnouncementSeen(
          SeenAnnouncementRecord(hash: item.hash, title: item.announcement.title, seenAt: now))
        guard isSeeded else { continue }
        for subscription in rooms {
          guard transports[subscription.room.transport] != nil else { continue }
          let message = OutgoingMessage(.announcement(composer.announcement(item.announcement)))
          outcome.merge(
            try relay.deliver(
              message, kind: .announcement, key: OutboxKey.announcement(subscription.room, hash: item.hash),
              to: subscription.room, reason: subscription.description, in: tx))
        }
      }
      if !isSeeded {
        try tx.setValue(AnnouncementHash.scheme, namespace: "engine", key: "announcementsSeeded", now: now)
      }
      return (outcome, fresh)
    }
    report.changed = fresh
    report.queued = outcome.queued + outcome.held
    EngineMetrics.rowsQueued(outcome.queued, kind: .announcement)
    wakeDispatchers(outcome.transports)
  }

  // MARK: Forums

  /// Reads a forum's first page; threads with ids above the stored watermark are new and go to every room following
  /// that forum (through their filters: author, keyword on the title).
  private func pollForum(id forumID: String, _ report: inout PollReport) async throws {
    report.requests += 1
    let page = try await forum.threads(forumID: forumID, page: 1)
    let relay = Relay(engine: self, now: now())
    let composer = composer
    let transports = transports
    let now = now()
    let (outcome, fresh) = try await database.write { tx -> (RelayOutcome, Int) in
      let highest = page.threads.compactMap { Int($0.id) }.max() ?? 0
      let title = page.breadcrumbs.last?.name
      guard var watermark = try tx.watchedForum(id: forumID) else {
        try tx.save(WatchedForumRecord(forumID: forumID, title: title, highestThreadID: highest, updatedAt: now))
        return (RelayOutcome(), 0)
      }
      let newThreads = page.threads.filter { (Int($0.id) ?? 0) > watermark.highestThreadID }
        .sorted { (Int($0.id) ?? 0) < (Int($1.id) ?? 0) }
      let subscriptions = try tx.subscriptions(kind: .forum).filter { $0.argument == forumID }
        .compactMap(BotEngine.subscription(from:))
      var outcome = RelayOutcome()
      for thread in newThreads {
        for subscription in subscriptions
        where subscription.filters.admits(author: thread.authorName, isOriginalPoster: true, text: { thread.title }) {
          guard transports[subscription.room.transport] != nil else { continue }
          let message = OutgoingMessage(
            .newThread(composer.newThread(thread, forumTitle: title ?? watermark.title)), threadKey: thread.id)
          outcome.merge(
            try relay.deliver(
              message, kind: .thread, key: OutboxKey.newThread(subscription.room, threadID: thread.id),
              to: subscription.room, threadID: thread.id, reason: subscription.description, in: tx))
        }
      }
      watermark.highestThreadID = max(watermark.highestThreadID, highest)
      watermark.title = title ?? watermark.title
      watermark.updatedAt = now
      try tx.save(watermark)
      return (outcome, newThreads.count)
    }
    report.changed = fresh
    report.queued = outcome.queued + outcome.held
    EngineMetrics.rowsQueued(outcome.queued, kind: .thread)
    wakeDispatchers(outcome.transports)
  }

  // MARK: Health

  /// Stores the poll's outcome and returns when the source is due next: the normal interval (jittered) after a
  /// success, exponential backoff (jittered) after consecutive errors.
  private func recordHealth(of report: PollReport, startedAt: Date) async throws -> Date {
    let source = report.source
    let interval = interval(for: source)
    let configuration = configuration
    let finished = now()
    return try await database.write { tx in
      var health = try tx.sourceHealth(source: source.name) ?? SourceHealthRecord(source: source.name)
      health.lastAttemptAt = startedAt
      health.totalPolls += 1
      let delay: Duration
      if let error = report.error {
        health.lastErrorAt = finished
        health.lastError = error
        health.consecutiveErrors += 1
        health.totalErrors += 1
        delay = Backoff.delay(
          attempt: health.consecutiveErrors, base: configuration.pollBackoffBase,
          maximum: configuration.maximumPollBackoff)
      } else {
        health.lastSuccessAt = finished
        health.consecutiveErrors = 0
        delay = interval
      }
      let next = finished.addingTimeInterval(Backoff.jittered(delay, by: configuration.jitter).timeInterval)
      health.nextAttemptAt = next
      try tx.save(health)
      return next
    }
  }

  func interval(for source: PollSource) -> Duration {
    switch source {
    case .bookmarks: configuration.bookmarksInterval
    case .announcements: configuration.announcementsInterval
    case .forum: configuration.forumsInterval
    case .privateMessages: configuration.privateMessagesInterval
    }
  }

  /// An error in words for health and logs. Forum and scrape errors describe themselves; nothing here carries
  /// secrets (the client never puts cookies or passwords in its errors).
  static func describe(_ error: any Error) -> String {
    switch error {
    case let error as ForumPageError: error.description
    case let error as ScrapeError: error.description
    case let error as CustomStringConvertible: error.description
    default: String(describing: error)
    }
  }
}
