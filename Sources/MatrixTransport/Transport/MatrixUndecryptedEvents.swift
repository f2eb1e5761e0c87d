import ChatBridge
import MatrixCrypto
import MatrixModel

/// Encrypted messages the bot could not read yet because their Megolm session has not arrived: retried when it does,
/// and after a wait the room is told that the bot could not read them: at most once an hour per room and sender,
/// however many sessions they use (a sender choosing new session ids cannot make the bot repeat itself).
struct MatrixUndecryptedEvents: Sendable {
  struct Waiting: Sendable {
    var room: String
    var event: MatrixEvent
    var since: ContinuousClock.Instant
  }

  private(set) var waiting: [MatrixMegolmSessionID: [Waiting]] = [:]
  /// When each `room|sender` was last told about.
  private var told: [String: ContinuousClock.Instant] = [:]
  /// How long a room and sender are not told again.
  static let quietPeriod = Duration.seconds(3600)

  mutating func add(_ event: MatrixEvent, room: String, session: MatrixMegolmSessionID, now: ContinuousClock.Instant) {
    waiting[session, default: []].append(Waiting(room: room, event: event, since: now))
  }

  /// The events waiting for these sessions (now readable), in arrival order.
  mutating func take(_ sessions: [MatrixMegolmSessionID]) -> [Waiting] {
    sessions.flatMap { waiting.removeValue(forKey: $0) ?? [] }
  }

  /// Events that waited longer than `wait`, removed; of those, one per room and sender not told within the hour.
  mutating func expired(olderThan wait: Duration, now: ContinuousClock.Instant) -> [Waiting] {
    var result: [Waiting] = []
    for (session, list) in waiting {
      let (old, young) = (list.filter { now - $0.since >= wait }, list.filter { now - $0.since < wait })
      waiting[session] = young.isEmpty ? nil : young
      for item in old {
        let key = "\(item.room)|\(item.event.sender ?? "")"
        if let last = told[key], now - last < Self.quietPeriod { continue }
        told[key] = now
        result.append(item)
      }
    }
    // Bounded: who was told more than an hour ago may be told again anyway.
    if told.count > 1_000 { told = told.filter { now - $0.value < Self.quietPeriod } }
    return result
  }
}
