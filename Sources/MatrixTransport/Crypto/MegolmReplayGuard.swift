/// Which event used each Megolm message index, so that a ciphertext replayed in another event is refused instead of
/// running a command twice. Bounded, since the bot decrypts every encrypted event of its rooms (its own relays echoed
/// back included) for months: the most recent `capacity` indexes are kept with their events; for older ones only the
/// highest forgotten index of each session is kept, and an index at or below it counts as used. (A session's indexes
/// only grow, and the bot reads rooms forward from its sync position, so an index that old arriving again is a
/// replay, or the same event delivered twice, which was handled the first time.) In memory: a restart forgets it, as
/// the sync position moves on.
struct MegolmReplayGuard {
  let capacity: Int
  private var events: [String: String] = [:]
  /// Keys of `events`, oldest first from `head` on (the front is dropped in one go once it is long).
  private var order: [String] = []
  private var head = 0
  /// Per session, the highest index forgotten.
  private var floors: [String: UInt32] = [:]

  init(capacity: Int = 20_000) {
    self.capacity = capacity
  }

  /// How many indexes are remembered with their events (at most `capacity`).
  var count: Int { events.count }

  /// Records that `eventID` used `index` of `session`; returns what used it before when that was another event (a
  /// replay), nil otherwise.
  mutating func use(session: String, index: UInt32, eventID: String?) -> String? {
    let key = "\(session)|\(index)"
    if let earlier = events[key] {
      return earlier == eventID ? nil : earlier
    }
    if let floor = floors[session], index <= floor { return "an earlier event" }
    guard let eventID else { return nil }
    events[key] = eventID
    order.append(key)
    while events.count > capacity { forgetOldest() }
    return nil
  }

  private mutating func forgetOldest() {
    let key = order[head]
    head += 1
    events[key] = nil
    if let bar = key.lastIndex(of: "|"), let index = UInt32(key[key.index(after: bar)...]) {
      let session = String(key[..<bar])
      floors[session] = max(floors[session] ?? 0, index)
    }
    if head > capacity {
      order.removeFirst(head)
      head = 0
    }
  }
}
