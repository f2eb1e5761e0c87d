/// Which event used each Megolm message index, so that a ciphertext replayed in another event is refused instead of
/// running a command twice. Bounded, since the bot decrypts every encrypted event of its rooms (its own relays echoed
/// back included) for months: the most recent `capacity` indexes are kept with their events; for older ones only the
/// highest forgotten index of each session is kept, and an index at or below it counts as used. (A session's indexes
/// only grow, and the bot reads rooms forward from its sync position, so an index that old arriving again is a
/// replay, or the same event delivered twice, which was handled the first time.) In memory: a restart forgets it, as
/// the sync position moves on.
///
/// Sessions and events are kept as hashes, not as their ids: with the ids (43 and 44 characters) a full record of
/// 20,000 took 7.5 MiB, as much as the rest of the bot's growth over hours. Two different ids with the same 64-bit
/// hash are not a risk worth the memory.
struct MegolmReplayGuard {
  let capacity: Int
  /// One index of one session.
  private struct Use: Hashable {
    var session: Int
    var index: UInt32
  }
  /// The hash of the event that used each index.
  private var events: [Use: Int] = [:]
  /// Keys of `events`, oldest first from `head` on (the front is dropped in one go once it is long).
  private var order: [Use] = []
  private var head = 0
  /// Per session, the highest index forgotten.
  private var floors: [Int: UInt32] = [:]

  init(capacity: Int = 20_000) {
    self.capacity = capacity
  }

  /// How many indexes are remembered with their events (at most `capacity`).
  var count: Int { events.count }

  /// Records that `eventID` used `index` of `session`; returns whether another event used it before (a replay).
  mutating func isReplay(session: String, index: UInt32, eventID: String?) -> Bool {
    let use = Use(session: session.hashValue, index: index)
    if let earlier = events[use] {
      return earlier != eventID?.hashValue
    }
    if let floor = floors[use.session], index <= floor { return true }
    guard let eventID else { return false }
    events[use] = eventID.hashValue
    order.append(use)
    while events.count > capacity { forgetOldest() }
    return false
  }

  private mutating func forgetOldest() {
    let use = order[head]
    head += 1
    events[use] = nil
    floors[use.session] = max(floors[use.session] ?? 0, use.index)
    if head > capacity {
      order.removeFirst(head)
      head = 0
    }
  }
}
