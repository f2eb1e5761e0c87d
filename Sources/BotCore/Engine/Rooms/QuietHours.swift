import ChatBridge
import Foundation

/// When a room wants no messages. Held messages are released as one digest when quiet ends.
package enum QuietHours: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Every day from `start` to `end` (wrapping past midnight when `end` < `start`), in the configured time zone.
  case daily(start: TimeOfDay, end: TimeOfDay)
  /// Until a moment (`quiet for 2h`).
  case until(Date)

  package var description: String {
    switch self {
    case .daily(let start, let end): "daily \(start)–\(end)"
    case .until(let date): "until \(date.formatted(.iso8601))"
    }
  }

  /// Parses `HH:MM-HH:MM`.
  package init?(parsingDaily text: String) {
    let parts = text.split(separator: "-")
    guard parts.count == 2, let start = TimeOfDay(parsing: String(parts[0])),
      let end = TimeOfDay(parsing: String(parts[1])), start != end
    else { return nil }
    self = .daily(start: start, end: end)
  }

  /// Whether `date` falls in the quiet period.
  package func isQuiet(at date: Date, calendar: Calendar) -> Bool {
    switch self {
    case .until(let end):
      return date < end
    case .daily(let start, let end):
      let now = TimeOfDay(of: date, in: calendar)
      return start < end ? (start <= now && now < end) : (now >= start || now < end)
    }
  }

  /// When the current quiet period ends (nil when not quiet at `date`).
  package func end(after date: Date, calendar: Calendar) -> Date? {
    guard isQuiet(at: date, calendar: calendar) else { return nil }
    switch self {
    case .until(let end): return end
    case .daily(_, let end): return end.nextOccurrence(after: date, in: calendar)
    }
  }
}
