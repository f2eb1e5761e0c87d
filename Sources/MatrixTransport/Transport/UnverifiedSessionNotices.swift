import Foundation

/// When each sender was last told, in a room, that the bot does not act on their unverified session: at most one
/// notice an hour per room and user, whatever the device (anyone can make a new session, so a key per device let
/// one person make the bot talk, and keep a row, as often as they liked). Kept as one bounded value in the
/// transport's state: entries older than the hour are dropped at each use, and at most `capacity` are kept; when
/// that many senders were told within the hour, the next is not told (logged only) until the oldest expires.
struct UnverifiedSessionNotices: Codable, Equatable {
  static let interval: TimeInterval = 3600
  static let capacity = 500

  /// "room\nuser" → when they were last told.
  private(set) var told: [String: Date] = [:]

  /// Whether to tell `user` in `room` now; when it says yes, the notice is recorded (before it is sent, so a crash in
  /// the send never makes it go twice in the hour). Expired entries are dropped first.
  mutating func shouldTell(user: String, in room: String, now: Date) -> Bool {
    told = told.filter { now.timeIntervalSince($0.value) < Self.interval && $0.value <= now }
    let key = "\(room)\n\(user)"
    guard told[key] == nil, told.count < Self.capacity else { return false }
    told[key] = now
    return true
  }

  var count: Int { told.count }
}
