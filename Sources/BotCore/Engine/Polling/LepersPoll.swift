import BotStore
import ChatBridge
import ForumModel
import Foundation
import Logging

/// Polls the Leper's Colony and relays each entry not seen before, oldest first, to every room that follows it.
struct LepersPoll: EnginePart {
  let context: EngineContext
  let outbox: OutboxWriter

  /// One row of a page with its identity.
  typealias Row = Relay.IdentifiedPunishment

  /// Entries known are forgotten once older (by this margin) than anything a read saw, but never the newest
  /// `lepersEntriesKept`: a later read stops at the first page holding a known entry, so it cannot reach one
  /// forgotten, and a page that lies about its dates cannot empty the set.
  static let forgettingMargin: TimeInterval = 86_400

  /// Reads the Colony from page 1 (newest first) and goes on to older pages while every row of a page is new, so a
  /// bot that was away catches up, up to `maximumLepersPages`. What is new goes to each following room exactly once:
  /// the seen set and the outbox rows commit together, and each row's key names the room and the entry, so a crash
  /// before the commit reads the pages again and one after it delivers what was queued. A room gets at most its
  /// replay cap of entries one by one from one read, the rest as one line that counts them; quiet hours hold them
  /// as they hold announcements, and a room in digest mode gets them in its digest (`Relay.deliver(_:to:reason:in:)`).
  /// Before the Colony was seeded (no room followed it when the first one subscribed, and the subscription could not
  /// read it then), page 1 is recorded without relaying anything.
  func run(_ report: inout PollReport) async throws {
    let isSeeded = try await database.read { tx in
      try tx.seedScheme(source: PollSource.lepers.name) == PunishmentIdentity.scheme
    }
    var fresh: [Row] = []
    var collected = Set<String>()
    var oldestRead: Date?
    var page = 1
    while true {
      report.requests += 1
      report.listPages += 1
      let result = try await forum.lepersColony(page: page)
      let rows = zip(result.punishments, PunishmentIdentity.of(page: result.punishments)).map { Row($0, $1) }
      if let oldest = result.punishments.map(\.date).min() { oldestRead = min(oldest, oldestRead ?? oldest) }
      let unseen = try await database.read { tx in try tx.unseenPunishments(identities: rows.map(\.identity)) }
      // Rows move down as entries are added between two pages: each is taken once.
      for row in rows where unseen.contains(row.identity) && collected.insert(row.identity).inserted {
        fresh.append(row)
      }
      guard isSeeded, !rows.isEmpty, rows.allSatisfy({ unseen.contains($0.identity) }) else { break }
      guard let navigation = result.navigation, page < navigation.total else { break }
      if page >= configuration.maximumLepersPages {
        logger.notice(
          "Leper's Colony: every page read is new since the last read; stopping at the page limit",
          metadata: ["pages": "\(page)"])
        break
      }
      page += 1
    }
    // The forum lists newest first; rooms read them in the order they were given.
    let pending = Array(fresh.reversed())
    let relay = outbox.relay(now: now())
    let now = now()
    let oldestDate = oldestRead
    let kept = configuration.lepersEntriesKept
    let (outcome, told) = try await database.write { tx -> (RelayOutcome, Int) in
      // Checked again where it is written: a subscription's seeding may have recorded some meanwhile.
      let new = try pending.filter { row in
        try tx.markPunishmentSeen(
          SeenPunishmentRecord(identity: row.identity, punishedAt: row.punishment.date, seenAt: now))
      }
      guard isSeeded else {
        try tx.markSeeded(source: PollSource.lepers.name, scheme: PunishmentIdentity.scheme, at: now)
        return (RelayOutcome(), new.count)
      }
      if let oldestDate {
        try tx.forgetPunishments(
          givenBefore: min(oldestDate, now).addingTimeInterval(-Self.forgettingMargin),
          keepingNewest: kept)
      }
      var outcome = RelayOutcome()
      let subscriptions = try tx.subscriptions(kind: .lepers).compactMap(Subscription.init(record:))
      for subscription in subscriptions {
        outcome.merge(try relay.deliver(new, to: subscription.room, reason: subscription.description, in: tx))
      }
      return (outcome, new.count)
    }
    if !isSeeded {
      logger.info("Leper's Colony: its first page is recorded without relaying it", metadata: ["entries": "\(told)"])
    }
    report.changed = isSeeded ? told : 0
    report.queued = outcome.queued + outcome.held
    EngineMetrics.rowsQueued(outcome.queued, kind: .punishment)
    outbox.wakeDispatchers(outcome.transports)
  }
}
