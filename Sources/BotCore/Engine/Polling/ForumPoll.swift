import BotStore
import ChatBridge
import ForumModel
import Foundation
import Logging

/// Polls one followed forum for new threads (against its stored watermark) and relays them to the rooms that follow
/// that forum.
struct ForumPoll: EnginePart {
  let context: EngineContext
  let outbox: OutboxWriter

  /// Reads a forum's list from the top; threads with ids above the stored watermark are new and go to every room
  /// following that forum (through their filters: author, keyword on the title).
  ///
  /// A forum lists its stickies first, then its threads newest last post first. A thread made since the last poll
  /// has a last post at least as new as the newest one page 1 showed then, so the read goes on past page 1 while
  /// every thread on the page is newer than that (less `listOrderMargin`): in a busy forum, threads bumped since
  /// the last poll can push a new one off page 1. It stops at `maximumForumPages`. The first poll, and any poll
  /// whose list is out of order (checked row by row, stickies aside), reads page 1 only, as a forum has too many
  /// pages to read whole; the log says so once.
  func run(forumID: String, _ report: inout PollReport) async throws {
    let key = ThreadListMark.forumKey(forumID)
    let mark = try await database.read { tx in try ThreadListMark.load(in: tx, key: key) }
    var order = ThreadListOrder(skipsStickies: true)
    var rows: [ThreadListThread] = []
    var seen = Set<String>()
    var firstPage: ThreadListPage?
    var page = 1
    while true {
      report.requests += 1
      report.listPages += 1
      let result = try await forum.threads(forumID: forumID, page: page)
      if page == 1 { firstPage = result }
      rows += result.threads.filter { seen.insert($0.id).inserted }
      guard order.check(result.threads, page: page), let newest = mark?.newestLastPost else { break }
      let threshold = newest.addingTimeInterval(-configuration.listOrderMargin.timeInterval)
      let reachesOlder = result.threads.contains { !$0.isSticky && ($0.lastPostDate.map { $0 < threshold } ?? false) }
      if reachesOlder || result.isLastPage(page) { break }
      if page >= configuration.maximumForumPages {
        logger.notice(
          "watched forum: every page read holds threads bumped since the last poll; stopping at the page limit",
          metadata: ["forum": "\(forumID)", "pages": "\(page)"])
        break
      }
      page += 1
    }
    report.listUnordered = !order.isIntact
    noteOrder(order, forumID: forumID, wasOrdered: mark?.isOrdered ?? true)
    let newestOnFirstPage = firstPage?.threads.compactMap(\.lastPostDate).max()
    let nextMark = ThreadListMark(
      newestLastPost: newestOnFirstPage ?? mark?.newestLastPost, lastFullSweep: nil, isOrdered: order.isIntact)

    let relay = outbox.relay(now: now())
    let composer = composer
    let transports = transports
    let now = now()
    let listed = rows
    let title = firstPage?.breadcrumbs.last?.name
    let (outcome, fresh) = try await database.write { tx -> (RelayOutcome, Int) in
      try nextMark.save(in: tx, key: key, now: now)
      let highest = listed.compactMap { Int($0.id) }.max() ?? 0
      guard var watermark = try tx.watchedForum(id: forumID) else {
        try tx.save(WatchedForumRecord(forumID: forumID, title: title, highestThreadID: highest, updatedAt: now))
        return (RelayOutcome(), 0)
      }
      let newThreads = listed.filter { (Int($0.id) ?? 0) > watermark.highestThreadID }
        .sorted { (Int($0.id) ?? 0) < (Int($1.id) ?? 0) }
      let subscriptions = try tx.subscriptions(kind: .forum).filter { $0.argument == forumID }
        .compactMap(Subscription.init(record:))
      var outcome = RelayOutcome()
      for thread in newThreads {
        for subscription in subscriptions
        where subscription.filters.admits(author: thread.authorName, isOriginalPoster: true, text: { thread.title }) {
          guard transports[subscription.room.transport] != nil else { continue }
          let message = OutgoingMessage(
            .newThread(composer.newThread(thread, forumTitle: title ?? watermark.title)), threadKey: thread.id)
          outcome.merge(
            try relay.deliver(
              message, kind: .newThread, key: OutboxKey.newThread(subscription.room, threadID: thread.id),
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
    EngineMetrics.rowsQueued(outcome.queued, kind: .newThread)
    outbox.wakeDispatchers(outcome.transports)
  }

  /// Says once, when it changes, whether the forum's list is newest-first (stickies aside); the mark saved with the
  /// watermark remembers it.
  private func noteOrder(_ order: ThreadListOrder, forumID: String, wasOrdered: Bool) {
    guard order.isIntact != wasOrdered else { return }
    if let brokeAt = order.brokeAt {
      logger.warning(
        "watched forum list is not newest-first: reading its first page only until it is",
        metadata: ["forum": "\(forumID)", "page": "\(brokeAt.page)", "row": "\(brokeAt.row)"])
    } else {
      logger.notice("watched forum list is newest-first again", metadata: ["forum": "\(forumID)"])
    }
  }
}
