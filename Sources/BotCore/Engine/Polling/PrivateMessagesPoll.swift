import BotStore
import ChatBridge
import ForumModel
import Foundation
import Logging

/// Polls the bot account's private-message inbox and tells each new message in every private-message room.
struct PrivateMessagesPoll: EnginePart {
  /// The scheme `seededSource` records once the inbox's first contents were recorded without alerts (any will do:
  /// a message is known by its id).
  static let seedScheme = "ids"

  let context: EngineContext
  let privateMessageRooms: PrivateMessageRooms
  let outbox: OutboxWriter

  /// Reads the inbox (one request) and tells each message not seen before in every private-message room, exactly
  /// once: the seen set and the outbox rows commit together, and each row's key names the room and the message, so
  /// a crash before the commit reads the inbox again and one after it delivers what was queued. The very first poll
  /// only records what the inbox holds (no flood of old messages; `pms` lists the unread ones). With excerpts on,
  /// each new message's page is read too (one request each; the forum then marks it read).
  func run(_ report: inout PollReport) async throws {
    let rooms = privateMessageRooms.all.filter { transports[$0.transport] != nil }
    report.requests += 1
    let inbox = try await forum.privateMessages()
    let ids = inbox.map(\.id)
    let (unseen, isSeeded) = try await database.read { tx in
      (
        try tx.unseenPrivateMessages(ids: ids),
        try tx.seedScheme(source: PollSource.privateMessages.name) != nil
      )
    }
    // Oldest first, so a room reads them in the order they were sent.
    let fresh = inbox.filter { unseen.contains($0.id) }.reversed()
    var bodies: [String: [RichText]] = [:]
    if isSeeded && configuration.privateMessageExcerpt {
      for header in fresh {
        report.requests += 1
        bodies[header.id] = try await forum.privateMessage(id: header.id).body
      }
    }
    let relay = outbox.relay(now: now())
    let composer = composer
    let now = now()
    let pending = Array(fresh)
    let texts = bodies
    let outcome = try await database.write { tx -> RelayOutcome in
      var outcome = RelayOutcome()
      for header in pending {
        try tx.markPrivateMessageSeen(id: header.id, at: now)
        guard isSeeded else { continue }
        let message = OutgoingMessage(.privateMessage(composer.privateMessage(header, body: texts[header.id])))
        for room in rooms {
          outcome.merge(
            try relay.deliver(
              message, kind: .privateMessage, key: OutboxKey.privateMessage(room, id: header.id), to: room,
              postID: header.id, reason: "private message \(header.id)", in: tx))
        }
      }
      if !isSeeded { try tx.markSeeded(source: PollSource.privateMessages.name, scheme: Self.seedScheme, at: now) }
      return outcome
    }
    if !isSeeded {
      logger.info(
        "private messages: the inbox's current messages are recorded without alerts",
        metadata: ["messages": "\(inbox.count)", "unread": "\(inbox.filter(\.isUnread).count)"])
    }
    report.changed = isSeeded ? pending.count : 0
    report.queued = outcome.queued + outcome.held
    EngineMetrics.rowsQueued(outcome.queued, kind: .privateMessage)
    outbox.wakeDispatchers(outcome.transports)
  }
}
