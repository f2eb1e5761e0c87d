import BotStore
import ChatBridge
import ForumModel
import Foundation

extension Relay {
  /// A Leper's Colony entry with the identity the engine knows it by (`PunishmentIdentity`).
  typealias IdentifiedPunishment = (punishment: Punishment, identity: String)

  /// Queues new Leper's Colony entries (oldest first) for one room following the Colony. A room in digest mode holds
  /// them for its next digest, as it holds posts. Otherwise the room gets one message per entry up to its replay
  /// cap and one line counting the rest; quiet hours hold those messages as they hold announcements.
  func deliver(
    _ punishments: [IdentifiedPunishment], to room: RoomRef, reason: String, in tx: StoreTransaction
  ) throws -> RelayOutcome {
    guard transports[room.transport] != nil, !punishments.isEmpty else { return RelayOutcome() }
    let settings = RoomSettings(
      record: try tx.room(transport: room.transport, room: room.room), defaultReplayCap: defaultReplayCap)
    var outcome = RelayOutcome()
    if case .digest = settings.mode {
      for entry in punishments {
        let item = HeldItemRecord(
          transport: room.transport, room: room.room, kind: .punishment, postID: entry.identity,
          payload: try RelayCoding.encode(entry.punishment), reason: "\(reason); \(Self.heldNote(Self.digestReason))",
          createdAt: now)
        if try tx.hold(item) { outcome.held += 1 }
      }
      return outcome
    }
    let cap = max(settings.replayCap, 0)
    for entry in punishments.prefix(cap) {
      outcome.merge(
        try deliver(
          OutgoingMessage(.punishment(composer.punishment(entry.punishment))), kind: .punishment,
          key: OutboxKey.punishment(room, identity: entry.identity), to: room, reason: reason, in: tx))
    }
    let rest = punishments.dropFirst(cap)
    if let first = rest.first, let last = rest.last {
      outcome.merge(
        try deliver(
          OutgoingMessage(.punishments(composer.punishments(rest.map(\.punishment)))), kind: .punishment,
          key: OutboxKey.punishments(room, from: first.identity, to: last.identity), to: room,
          reason: "\(reason); more than \(cap) new entries in one read (the room's replay cap)", in: tx))
    }
    return outcome
  }
}
