import BotStore
import ChatBridge
import ForumModel
import Foundation

extension SubscriptionBook {
  /// Subscribes a room to the Leper's Colony without relaying anything already on it. When no room followed the
  /// Colony, its first page is read now (one request, through the book's forum: a command's comes from the command
  /// budget) and recorded as seen in the transaction that stores the subscription, so the next poll relays only
  /// what came after. When that read fails, the subscription stands and the seed mark is cleared in the same
  /// transaction, so the next poll records the first page without relaying it (entries given in between are then
  /// not told). When another room follows it already, the seen set is current and nothing is read.
  func subscribeToLepers(room: RoomRef, filters: SubscriptionFilters, createdBy: String?) async throws
    -> (Subscription, Bool)
  {
    let isFollowed = try await database.read { tx in !(try tx.subscriptions(kind: .lepers).isEmpty) }
    var firstPage: [Punishment]?
    if !isFollowed {
      firstPage = try? await forum.lepersColony(page: 1).punishments
    }
    let rows = firstPage.map { page in zip(page.map(\.date), PunishmentIdentity.of(page: page)) }
    let now = now()
    return try await store(.lepers, filters: filters, room: room, createdBy: createdBy) { tx in
      // Another room may have subscribed meanwhile: then its seeding stands.
      guard try tx.subscriptions(kind: .lepers).isEmpty else { return }
      let source = PollSource.lepers.name
      guard let rows else {
        try tx.clearSeeded(source: source)
        return
      }
      for (date, identity) in rows {
        try tx.markPunishmentSeen(SeenPunishmentRecord(identity: identity, punishedAt: date, seenAt: now))
      }
      try tx.markSeeded(source: source, scheme: PunishmentIdentity.scheme, at: now)
    }
  }
}
