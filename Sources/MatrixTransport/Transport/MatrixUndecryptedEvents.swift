import ChatBridge

/// Encrypted messages the bot could not read yet because their Megolm session has not arrived: retried when it does,
/// and after a wait the room is told once (per sender and session) that the bot could not read them.
struct MatrixUndecryptedEvents: Sendable {
  struct Waiting: Sendable {
    var room: String
    var event: MatrixEvent
    var since: ContinuousClock.Instant
  }

  private(set) var waiting: [MatrixMegolmSessionID: [Waiting]] = [:]
  /// `room|sender|session` already told about.
  private var told: Set<String> = []

  mutating func add(_ event: MatrixEvent, room: String, session: MatrixMegolmSessionID, now: ContinuousClock.Instant) {
    waiting[session, default: []].append(Waiting(room: room, event: event, since: now))
  }

  /// The events waiting for these sessions (now readable), in arrival order.
  mutating func take(_ sessions: [MatrixMegolmSessionID]) -> [Waiting] {
    sessions.flatMap { waiting.removeValue(forKey: $0) ?? [] }
  }

  /// Events that waited longer than `wait`, removed; one per room, sender and session that was not told before.
  mutating func expired(olderThan wait: Duration, now: ContinuousClock.Instant) -> [Waiting] {
    var result: [Waiting] = []
    for (session, list) in waiting {
      let (old, young) = (list.filter { now - $0.since >= wait }, list.filter { now - $0.since < wait })
      waiting[session] = young.isEmpty ? nil : young
      for item in old {
        let key = "\(item.room)|\(item.event.sender ?? "")|\(session.sessionID)"
        if told.insert(key).inserted { result.append(item) }
      }
    }
    return result
  }
}
