import BotStore
import ChatBridge
import ForumModel
import Foundation

/// What the engine can tell about itself: the health of the poll sources and the outbox, a room's status, and why a
/// post reached a room or not.
package struct StatusReporter: Sendable, EnginePart {
  let context: EngineContext
  let privateMessageRooms: PrivateMessageRooms

  /// Parked rows a status names (newest first); the count says how many there are in all.
  static let parkedShown = 5

  /// Health of every poll source and of the outbox (depth per room, dead letters, failures, held items).
  package func health() async throws -> EngineHealth {
    try await database.read { tx in
      let counts = try tx.outboxCounts()
      var depth: [RoomRef: Int] = [:]
      for row in try tx.pendingDepthByRoom() { depth[RoomRef(transport: row.transport, room: row.room)] = row.pending }
      var health = EngineHealth(
        sources: try Self.sources(in: tx), outboxDepth: depth, deadLetters: counts.dead,
        failed: counts.failed, held: try tx.totalHeldCount())
      health.parked = counts.parked
      health.parkedRows = try tx.parkedRows(limit: Self.parkedShown).map { ParkedText.name(of: $0, withRoom: true) }
      return health
    }
  }

  /// Everything `status` shows for one room: settings, subscriptions, alerts, its outbox and the poll sources.
  package func status(room: RoomRef) async throws -> RoomStatus {
    let cap = configuration.replayCap
    let backlogLimit = configuration.backlogLimit
    let now = now()
    let calendar = configuration.calendar
    let probation = await forum.probation
    let wall = await forum.wall
    let receivesPrivateMessages = privateMessageRooms.contains(room)
    var status = try await database.read { tx in
      let settings = RoomSettings(
        record: try tx.room(transport: room.transport, room: room.room), defaultReplayCap: cap)
      let counts = try tx.outboxCounts(transport: room.transport, room: room.room)
      let failures = try tx.undeliverableRows(transport: room.transport, room: room.room, limit: 3).map {
        "\($0.kind) \($0.postID.map { "post \($0)" } ?? "#\($0.id ?? 0)"): \($0.lastError ?? $0.state.rawValue)"
      }
      var status = RoomStatus(
        room: room, settings: settings,
        subscriptions: try tx.subscriptions(transport: room.transport, room: room.room)
          .compactMap(Subscription.init(record:)),
        alerts: try tx.alerts(transport: room.transport, room: room.room).map(\.username),
        pending: counts.pending, delivered: counts.delivered, failed: counts.failed, deadLetters: counts.dead,
        held: try tx.heldCount(transport: room.transport, room: room.room),
        isQuietNow: settings.isQuiet(at: now, calendar: calendar), recentFailures: failures,
        sources: try Self.sources(in: tx), backlogLimit: backlogLimit)
      status.parked = counts.parked
      status.parkedRows = try tx.parkedRows(transport: room.transport, room: room.room, limit: Self.parkedShown)
        .map { ParkedText.name(of: $0, withRoom: false) }
      return status
    }
    status.probation = probation
    status.forumWall = wall
    status.receivesPrivateMessages = receivesPrivateMessages
    status.storageFullSince = database.storage.fullSince
    return status
  }

  /// Why a post reached the room or not: the outbox rows and held items about it with the subscription that matched,
  /// or, when there are none, the likely reason.
  package func why(postID: String, room: RoomRef) async throws -> WhyAnswer {
    try await database.read { tx in
      var entries = try tx.outboxRows(postID: postID, transport: room.transport, room: room.room).map { row in
        WhyAnswer.Entry(
          kind: row.kind.rawValue, reason: row.reason ?? "", state: row.state.rawValue, queuedAt: row.createdAt,
          deliveredAt: row.deliveredAt, attempts: row.attempts, lastError: row.lastError)
      }
      // Summaries and digests name every post they stand for after "posts:" in their reason.
      entries += try tx.outboxRows(transport: room.transport, room: room.room)
        .filter { row in
          (row.kind == .digest || row.kind == .summary) && row.postID != postID
            && (row.reason?.components(separatedBy: "posts: ").last ?? "").split(separator: " ")
              .contains(Substring(postID))
        }
        .map { row in
          WhyAnswer.Entry(
            kind: row.kind.rawValue,
            reason: "in a \(row.kind) (\(row.reason?.components(separatedBy: ";").first ?? ""))",
            state: row.state.rawValue, queuedAt: row.createdAt, deliveredAt: row.deliveredAt, attempts: row.attempts,
            lastError: row.lastError)
        }
      entries += try tx.heldItems(postID: postID, transport: room.transport, room: room.room).map { item in
        WhyAnswer.Entry(kind: item.kind.rawValue, reason: item.reason ?? "", state: "held", queuedAt: item.createdAt)
      }
      let threadID = try tx.outboxRows(postID: postID, transport: room.transport, room: room.room).first?.threadID
      let thread = try threadID.flatMap { try tx.thread(id: $0) }
      let explanation = entries.isEmpty ? try Self.explainMissing(postID: postID, room: room, in: tx) : nil
      // A bare number the bot knows as a thread (and never relayed as a post) was meant as a thread.
      let knownThread = entries.isEmpty && threadID == nil ? try tx.thread(id: postID) : nil
      return WhyAnswer(
        postID: postID, threadID: threadID, threadTitle: thread?.title, entries: entries, explanation: explanation,
        threadNamed: knownThread.map { $0.title.isEmpty ? "\(postID)" : "“\($0.title)”" })
    }
  }

  /// Whether the room follows anything the post could have come through, in words.
  private static func explainMissing(postID: String, room: RoomRef, in tx: StoreTransaction) throws -> String {
    let subscriptions = try tx.subscriptions(transport: room.transport, room: room.room)
    if subscriptions.isEmpty {
      return "This room has no subscriptions, so no posts are relayed here."
    }
    return
      "Nothing about it was queued for this room. It may have been posted before the room subscribed "
      + "(subscribing starts after the current last post), filtered out by the subscription's filters, "
      + "or the thread is not one the room follows."
  }

  /// Every poll source's health with its pace (how long until the next read, and why).
  private static func sources(in tx: StoreTransaction) throws -> [SourceHealth] {
    let paces = try tx.pollPaces()
    return try tx.allSourceHealth().map { record in
      SourceHealth(
        source: record.source, lastAttempt: record.lastAttemptAt, lastSuccess: record.lastSuccessAt,
        lastErrorAt: record.lastErrorAt, lastError: record.lastError, consecutiveErrors: record.consecutiveErrors,
        totalErrors: record.totalErrors, totalPolls: record.totalPolls, nextAttempt: record.nextAttemptAt,
        pace: paces[record.source].flatMap(PollPace.init(record:)))
    }
  }
}
