import ChatBridge
import Foundation

/// When a room in digest mode gets its digest.
package enum DigestSchedule: Sendable, Hashable, Codable, CustomStringConvertible {
  /// At the top of every hour.
  case hourly
  /// Once a day at this time.
  case daily(TimeOfDay)

  package var description: String {
    switch self {
    case .hourly: "hourly"
    case .daily(let time): "daily at \(time)"
    }
  }

  /// Store encoding: `hourly` or `daily@HH:MM`.
  var storeValue: String {
    switch self {
    case .hourly: "hourly"
    case .daily(let time): "daily@\(time)"
    }
  }

  init?(storeValue: String) {
    if storeValue == "hourly" {
      self = .hourly
    } else if storeValue.hasPrefix("daily@"), let time = TimeOfDay(parsing: String(storeValue.dropFirst(6))) {
      self = .daily(time)
    } else {
      return nil
    }
  }

  /// The most recent scheduled moment at or before `date`.
  func latestSlot(atOrBefore date: Date, in calendar: Calendar) -> Date {
    switch self {
    case .hourly:
      return calendar.dateInterval(of: .hour, for: date)?.start ?? date
    case .daily(let time):
      return time.latestOccurrence(atOrBefore: date, in: calendar)
    }
  }
}
