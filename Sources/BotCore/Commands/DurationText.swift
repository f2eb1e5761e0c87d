import ChatBridge
import Foundation

/// Durations as people type them: `90m`, `2h`, `1h30m`, `1d`, `45 minutes`, `2 hours`.
package enum DurationText {
  package static func parse(_ text: String) -> TimeInterval? {
    let compact = text.lowercased().replacingOccurrences(of: " ", with: "")
    guard !compact.isEmpty else { return nil }
    var total: TimeInterval = 0
    var number = ""
    var unit = ""
    func flush() -> Bool {
      guard let value = Double(number), value >= 0 else { return false }
      let seconds: TimeInterval
      switch unit {
      case "s", "sec", "secs", "second", "seconds": seconds = 1
      case "m", "min", "mins", "minute", "minutes": seconds = 60
      case "h", "hr", "hrs", "hour", "hours": seconds = 3600
      case "d", "day", "days": seconds = 86_400
      default: return false
      }
      total += value * seconds
      number = ""
      unit = ""
      return true
    }
    for character in compact {
      if character.isNumber || character == "." {
        if !unit.isEmpty { guard flush() else { return nil } }
        number.append(character)
      } else if character.isLetter {
        guard !number.isEmpty else { return nil }
        unit.append(character)
      } else {
        return nil
      }
    }
    guard flush(), total > 0 else { return nil }
    return total
  }

  /// "2h 30m" for confirmations.
  package static func format(_ interval: TimeInterval) -> String {
    let minutes = Int((interval / 60).rounded())
    let days = minutes / 1440
    let hours = (minutes % 1440) / 60
    let rest = minutes % 60
    var parts: [String] = []
    if days > 0 { parts.append("\(days)d") }
    if hours > 0 { parts.append("\(hours)h") }
    if rest > 0 || parts.isEmpty { parts.append("\(rest)m") }
    return parts.joined(separator: " ")
  }
}
