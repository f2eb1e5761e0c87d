import Foundation

/// Post times as `2025-01-02 15:04 UTC`: unambiguous for a room whose members live in different time zones.
package struct DateText: Sendable, Hashable {
  package var timeZone: TimeZone

  package init(timeZone: TimeZone) {
    self.timeZone = timeZone
  }

  /// The zone as a sentence names it: "UTC" for UTC by any of its names (GMT, Etc/UTC), else its identifier
  /// ("America/Chicago"), matching the "UTC" that `format` writes.
  package var zoneName: String {
    ["GMT", "UTC", "Etc/UTC", "Etc/GMT", "Universal", "Zulu"].contains(timeZone.identifier)
      ? "UTC" : timeZone.identifier
  }

  package func format(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    let zone =
      timeZone.secondsFromGMT(for: date) == 0 ? "UTC" : (timeZone.abbreviation(for: date) ?? timeZone.identifier)
    let date = "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))"
    return "\(date) \(pad(parts.hour, 2)):\(pad(parts.minute, 2)) \(zone)"
  }

  /// A day without a time, `2025-01-02`, for dates the forum gives without one.
  package func formatDay(_ date: Date) -> String {
    String(format(date).prefix(10))
  }

  private func pad(_ value: Int?, _ width: Int) -> String {
    let digits = String(value ?? 0)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
