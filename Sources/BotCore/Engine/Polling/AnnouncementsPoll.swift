import BotStore
import ChatBridge
import ForumModel
import Foundation

/// Polls the forum's announcements and relays each one not seen before to every room subscribed to them.
struct AnnouncementsPoll: EnginePart {
  let context: EngineContext
  let outbox: OutboxWriter

  /// Reads the announcements; a hash not seen before goes to every room subscribed to announcements. The very first
  /// poll only records the hashes (no flood of old announcements).
  func run(_ report: inout PollReport) async throws {
    let set = try await AnnouncementSet.fetch(from: forum, requests: &report.requests)
    let relay = outbox.relay(now: now())
    let composer = composer
    let transports = transports
    let now = now()
    let (outcome, fresh) = try await database.write { tx -> (RelayOutcome, Int) in
      // "2": announcements known by author and body (see `AnnouncementHash`). Hashes of the earlier scheme (with
      // the title) never match, so after an upgrade the current ones are recorded again without being relayed.
      let source = PollSource.announcements.name
      let isSeeded = try tx.seedScheme(source: source) == AnnouncementHash.scheme
      let rooms = try tx.subscriptions(kind: .announcements).compactMap(Subscription.init(record:))
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
        try tx.markSeeded(source: source, scheme: AnnouncementHash.scheme, at: now)
      }
      return (outcome, fresh)
    }
    report.changed = fresh
    report.queued = outcome.queued + outcome.held
    EngineMetrics.rowsQueued(outcome.queued, kind: .announcement)
    outbox.wakeDispatchers(outcome.transports)
  }
}
