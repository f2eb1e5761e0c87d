import BotStore
import ChatBridge
import ForumModel
import Foundation
import Logging

/// One poll of one source at a time: runs the source's reader (bookmarks, announcements, a forum, the inbox),
/// records the outcome in the source's health with its next due time (backoff after errors), and lists the sources
/// the poller should run. It holds the poller's wake-up signal and the intervals, which commands and a reloaded
/// config change.
package struct PollCycle: Sendable, EnginePart {
  let context: EngineContext
  /// The poll intervals, which a reloaded config may change (`updateIntervals`).
  package let schedule: PollSchedule
  /// What wakes the poller: a command changed what is watched, a private-message room was added.
  let signal: WakeSignal
  private let privateMessageRooms: PrivateMessageRooms
  private let bookmarks: BookmarksPoll
  private let announcements: AnnouncementsPoll
  private let forums: ForumPoll
  private let privateMessages: PrivateMessagesPoll
  private let lepers: LepersPoll

  init(
    context: EngineContext, schedule: PollSchedule, pollSignal: WakeSignal, privateMessageRooms: PrivateMessageRooms,
    outbox: OutboxWriter
  ) {
    self.context = context
    self.schedule = schedule
    self.signal = pollSignal
    self.privateMessageRooms = privateMessageRooms
    bookmarks = BookmarksPoll(context: context, schedule: schedule, outbox: outbox)
    announcements = AnnouncementsPoll(context: context, outbox: outbox)
    forums = ForumPoll(context: context, outbox: outbox)
    privateMessages = PrivateMessagesPoll(context: context, privateMessageRooms: privateMessageRooms, outbox: outbox)
    lepers = LepersPoll(context: context, outbox: outbox)
  }

  /// Polls one source now: reads the forum, relays what is new, and records the outcome in the source's health
  /// (with the backoff after an error). Never throws: an error is an error for this poll — logged, counted and
  /// visible in `health()` — and never read as "nothing new".
  @discardableResult
  package func poll(_ source: PollSource) async -> PollReport {
    var report = PollReport(source: source)
    let started = now()
    let clock = ContinuousClock()
    let startedInstant = clock.now
    // While the disk is full a poll could fetch posts but not save them: it waits, costing the forum nothing, until
    // a probe write lands (the change is logged once, by `StorageLog.follow`).
    guard await database.checkStorage() else {
      report.error = BotStoreError.storageFull.description
      report.storageFull = true
      return await finish(report, startedAt: started, duration: clock.now - startedInstant)
    }
    do {
      switch source {
      case .bookmarks: try await bookmarks.run(&report)
      case .announcements: try await announcements.run(&report)
      case .forum(let id): try await forums.run(forumID: id, &report)
      case .privateMessages: try await privateMessages.run(&report)
      case .lepers: try await lepers.run(&report)
      }
    } catch {
      report.error = Self.describe(error)
      report.storageFull = BotStoreError.isStorageFull(error)
      report.retryAfterSeconds = (error as? any ForumFailure)?.wall?.retryAfterSeconds
      // Shutdown interrupted the poll: not a forum failure, so no error in the source's health, no backoff and no
      // warning (the transport that stopped the bot has the message that matters).
      if Task.isCancelled {
        logger.debug("poll interrupted by shutdown", metadata: ["source": "\(source)"])
        return report
      }
    }
    return await finish(report, startedAt: started, duration: clock.now - startedInstant)
  }

  /// One step of the bookmarks' full sweep in progress (a page, or confirming a thread no page listed), which the
  /// poller takes when no source is due: nil when no sweep is in progress or the disk is full. An error is logged
  /// and returned, not recorded in the bookmarks' health: the next check meets the same forum and records it, and
  /// the sweep goes on from the same page after it.
  @discardableResult
  package func sweepBookmarks() async -> PollReport? {
    var report = PollReport(source: .bookmarks)
    guard await database.checkStorage() else { return nil }
    do {
      guard try await bookmarks.sweepStep(&report) else { return nil }
    } catch {
      report.error = Self.describe(error)
      report.storageFull = BotStoreError.isStorageFull(error)
      if !Task.isCancelled {
        logger.log(
          level: report.storageFull ? .debug : .warning, "bookmarks sweep step failed: it goes on after the next check",
          metadata: ["error": "\(error)", "requests": "\(report.requests)"])
      }
    }
    EngineMetrics.forumRequests(report.requests, source: PollSource.bookmarks.name)
    return report
  }

  /// Counts the poll, stores its outcome and says how it went.
  private func finish(_ report: PollReport, startedAt started: Date, duration: Duration) async -> PollReport {
    var report = report
    let source = report.source
    EngineMetrics.pollDuration(duration, source: source.name)
    EngineMetrics.forumRequests(report.requests, source: source.name)
    EngineMetrics.poll(source: source.name, outcome: report.succeeded ? "success" : "error")
    do {
      (report.nextAttempt, report.pace) = try await recordHealth(of: report, startedAt: started)
    } catch {
      // A full disk was said once when it began; a line per poll would only repeat it.
      logger.log(
        level: BotStoreError.isStorageFull(error) ? .debug : .error, "could not record poll health",
        metadata: ["source": "\(source)", "error": "\(error)"])
    }
    if let error = report.error {
      logger.log(
        level: report.storageFull ? .debug : .warning,
        "poll failed",
        metadata: ["source": "\(source)", "error": "\(error)", "requests": "\(report.requests)"])
    } else {
      logger.debug(
        "poll finished",
        metadata: [
          "source": "\(source)", "requests": "\(report.requests)", "changed": "\(report.changed)",
          "queued": "\(report.queued)", "listPages": "\(report.listPages)", "fullSweep": "\(report.fullSweep)",
          "nextSeconds": "\(report.pace?.seconds ?? 0)", "pace": "\(report.pace?.reason.rawValue ?? "none")",
        ])
    }
    return report
  }

  /// Every source the poller should run: bookmarks, announcements while some room follows them, each forum some
  /// room follows, the private-message inbox while rooms are configured for it, and the Leper's Colony while some
  /// room follows it.
  package func sources() async throws -> [PollSource] {
    let (forums, announcements, lepers) = try await database.read { tx in
      (
        Set(try tx.subscriptions(kind: .forum).map(\.argument)), !(try tx.subscriptions(kind: .announcements).isEmpty),
        !(try tx.subscriptions(kind: .lepers).isEmpty)
      )
    }
    return [.bookmarks] + (announcements ? [.announcements] : []) + forums.sorted().map { .forum(id: $0) }
      + (privateMessageRooms.all.isEmpty ? [] : [.privateMessages]) + (lepers ? [.lepers] : [])
  }

  // MARK: Health

  /// Stores the poll's outcome and returns when the source is due next, with the pace chosen after a success: the
  /// pace's interval after a success (see `PollPace`), exponential backoff after consecutive errors, both jittered.
  private func recordHealth(of report: PollReport, startedAt: Date) async throws -> (Date, PollPace?) {
    let source = report.source
    let intervals = schedule.current
    let (floor, ceiling) = intervals.bounds(for: source)
    let configuration = configuration
    let finished = now()
    return try await database.write { tx in
      var health = try tx.sourceHealth(source: source.name) ?? SourceHealthRecord(source: source.name)
      health.lastAttemptAt = startedAt
      health.totalPolls += 1
      let delay: Duration
      var pace: PollPace?
      if let error = report.error {
        health.lastErrorAt = finished
        health.lastError = error
        health.consecutiveErrors += 1
        health.totalErrors += 1
        // Backoff spares the forum; a poll waiting for disk space asks it nothing, and should notice the space soon
        // after it returns, so its wait does not grow.
        let backoff =
          report.storageFull
          ? configuration.pollBackoffBase
          : Backoff.delay(
            attempt: health.consecutiveErrors, base: configuration.pollBackoffBase, maximum: intervals.maximumBackoff)
        // A wall that said how long to wait is not asked again sooner (jitter included, below).
        delay = max(backoff, .seconds(report.retryAfterSeconds ?? 0))
      } else {
        health.lastSuccessAt = finished
        health.consecutiveErrors = 0
        let next = PollPace.after(
          try PollPace.load(in: tx, source: source), found: report.changed > 0, unordered: report.listUnordered,
          floor: floor, ceiling: ceiling)
        try next.save(in: tx, source: source, now: finished)
        pace = next
        delay = next.interval
      }
      let wait = max(Backoff.jittered(delay, by: configuration.jitter), .seconds(report.retryAfterSeconds ?? 0))
      let next = finished.addingTimeInterval(wait.timeInterval)
      health.nextAttemptAt = next
      try tx.save(health)
      return (next, pace)
    }
  }

  /// The longest wait between reads of a source (its only one when it is not paced), as the config says now.
  func interval(for source: PollSource) -> Duration {
    schedule.current.ceiling(for: source)
  }

  /// Asks the poller to poll bookmarks and watched forums now (after a command changed what is watched).
  /// Sources in backoff after errors keep their backoff.
  package func requestPoll() {
    signal.signal()
  }

  /// Applies new poll intervals (a reloaded config) from the next cycle on, and wakes the poller so that a source
  /// due later than its new interval allows is brought forward. Returns the intervals replaced.
  @discardableResult
  package func updateIntervals(_ intervals: PollSchedule.Intervals) -> PollSchedule.Intervals {
    let previous = schedule.replace(with: intervals)
    if previous != intervals { signal.signal() }
    return previous
  }

  /// Whether the inbox's first contents were recorded (without alerts), so a message sent now is told.
  package func isInboxSeeded() async throws -> Bool {
    try await database.read { tx in try tx.seedScheme(source: PollSource.privateMessages.name) != nil }
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
