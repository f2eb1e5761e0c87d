import BotStore
import ChatBridge
import ForumModel
import Foundation

/// Polls one followed forum for new threads (against its stored watermark) and relays them to the rooms that follow
/// that forum.
struct ForumPoll: Sendable {
  let database: BotDatabase
  let forum: any Forum
  let composer: MessageComposer
  let transports: [String: ChatCapabilities]
  let outbox: OutboxWriter
  let now: @Sendable () -> Date

  /// Reads a forum's first page; threads with ids above the stored watermark are new and go to every room following
  /// that forum (through their filters: author, keyword on the title).
  func run(forumID: String, _ report: inout PollReport) async throws {
    report.requests += 1
    let page = try await forum.threads(forumID: forumID, page: 1)
    let relay = outbox.relay(now: now())
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
}
