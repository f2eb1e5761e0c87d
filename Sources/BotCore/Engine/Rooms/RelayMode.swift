/// How a room receives new posts.
package enum RelayMode: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Every post as its own message (up to the room's replay cap per thread per cycle, then one summary line).
  case each
  /// More than `threshold` new posts in one thread in one cycle become one message naming the authors.
  case summary(threshold: Int)
  /// Posts are held and released as one digest message on the schedule.
  case digest(DigestSchedule)

  /// The default `summary` threshold when the command does not give one.
  package static let defaultSummaryThreshold = 3

  package var description: String {
    switch self {
    case .each: "each post"
    case .summary(let threshold): "summary (more than \(threshold) new posts in a thread become one message)"
    case .digest(let schedule): "digest (\(schedule))"
    }
  }
}
