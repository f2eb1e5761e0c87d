import ChatBridge
import Foundation

/// A wall-clock time `HH:MM` (24-hour) in the engine's configured time zone.
package struct TimeOfDay: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
  package var hour: Int
  package var minute: Int

  package init?(hour: Int, minute: Int) {
    guard (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
    self.hour = hour
    self.minute = minute
  }

  /// Parses `HH:MM` or `H:MM`.
  package init?(parsing text: String) {
    let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
      let hour = Int(parts[0]), let minute = Int(parts[1])
    else { return nil }
    self.init(hour: hour, minute: minute)
  }

  package var minutesSinceMidnight: Int { hour * 60 + minute }

  package static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
    lhs.minutesSinceMidnight < rhs.minutesSinceMidnight
  }

  package var description: String {
    (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
  }

  /// The time of day of `date` in `calendar`'s time zone.
  init(of date: Date, in calendar: Calendar) {
    let parts = calendar.dateComponents([.hour, .minute], from: date)
    self.hour = parts.hour ?? 0
    self.minute = parts.minute ?? 0
  }

  /// The latest moment at or before `date` whose wall-clock time is this one.
  func latestOccurrence(atOrBefore date: Date, in calendar: Calendar) -> Date {
    let startOfDay = calendar.startOfDay(for: date)
    let today =
      calendar.date(bySettingHour: hour, minute: minute, second: 0, of: startOfDay) ?? startOfDay
    if today <= date { return today }
    return calendar.date(byAdding: .day, value: -1, to: today) ?? today
  }

  /// The earliest moment after `date` whose wall-clock time is this one.
  func nextOccurrence(after date: Date, in calendar: Calendar) -> Date {
    let latest = latestOccurrence(atOrBefore: date, in: calendar)
    return calendar.date(byAdding: .day, value: 1, to: latest) ?? latest.addingTimeInterval(86_400)
  }
}
