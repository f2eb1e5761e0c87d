import Foundation

/// A moment a message shows (when a post was made), kept as an instant with the zone to show it in, so the
/// renderer writes it at send time: a change in how dates read reaches rows already queued.
package struct ChatDate: Sendable, Hashable, Codable {
  package var instant: Date
  /// The bot's configured zone (an identifier, `Europe/Berlin`), as it was when the row was queued.
  package var timeZone: String
  /// False for dates the forum gives without a time of day (some announcements): shown as a day alone.
  package var hasTime: Bool

  package init(_ instant: Date, timeZone: TimeZone, hasTime: Bool = true) {
    self.instant = instant
    self.timeZone = timeZone.identifier
    self.hasTime = hasTime
  }

  /// `2025-01-02 15:04 UTC`, or `2025-01-02` without a time.
  package var text: String {
    let dates = DateText(timeZone: TimeZone(identifier: timeZone) ?? .gmt)
    return hasTime ? dates.format(instant) : dates.formatDay(instant)
  }

  // Written as seconds since 1970 (not Foundation's default reference date), so the outbox migration that turned
  // stored text into instants and anyone reading a row by hand agree on the number.
  private enum CodingKeys: String, CodingKey {
    case instant = "unixSeconds"
    case timeZone, hasTime
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    instant = Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .instant))
    timeZone = try container.decode(String.self, forKey: .timeZone)
    hasTime = try container.decodeIfPresent(Bool.self, forKey: .hasTime) ?? true
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(instant.timeIntervalSince1970, forKey: .instant)
    try container.encode(timeZone, forKey: .timeZone)
    try container.encode(hasTime, forKey: .hasTime)
  }
}
