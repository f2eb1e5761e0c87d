/// Idempotency keys: stable for the same content in the same room, so queueing twice is a no-op and a resend
/// after a crash carries the key the transport saw the first time (Matrix uses it as the transaction id).
enum OutboxKey {
  static func post(_ room: RoomRef, postID: String) -> String { "\(prefix(room))post:\(postID)" }
  static func alert(_ room: RoomRef, postID: String) -> String { "\(prefix(room))alert:\(postID)" }
  static func announcement(_ room: RoomRef, hash: String) -> String { "\(prefix(room))announcement:\(hash)" }
  static func newThread(_ room: RoomRef, threadID: String) -> String { "\(prefix(room))thread:\(threadID)" }
  static func summary(_ room: RoomRef, threadID: String, fromIndex: Int, toIndex: Int) -> String {
    "\(prefix(room))summary:\(threadID):\(fromIndex)-\(toIndex)"
  }
  static func digest(_ room: RoomRef, firstHeldID: Int64, lastHeldID: Int64) -> String {
    "\(prefix(room))digest:\(firstHeldID)-\(lastHeldID)"
  }
  static func privateMessage(_ room: RoomRef, id: String) -> String { "\(prefix(room))pm:\(id)" }
  static func punishment(_ room: RoomRef, identity: String) -> String { "\(prefix(room))lepers:\(identity)" }
  /// The count of Leper's Colony entries past a room's replay cap, named by the first and last it counts.
  static func punishments(_ room: RoomRef, from first: String, to last: String) -> String {
    "\(prefix(room))lepers:\(first)-\(last)"
  }
  static func answer(_ room: RoomRef, id: String, answer: Int) -> String { "\(prefix(room))reply:\(id)#\(answer)" }

  /// The command message an answer row's key answers (`…|reply:<id>#<n>`); nil for other keys.
  static func answeredMessageID(in key: String) -> String? {
    guard let start = key.range(of: "|reply:", options: .backwards), let end = key.range(of: "#", options: .backwards),
      start.upperBound <= end.lowerBound
    else { return nil }
    return String(key[start.upperBound..<end.lowerBound])
  }

  private static func prefix(_ room: RoomRef) -> String { "\(room.transport)|\(room.room)|" }
}
