import Foundation
import GRDB

/// Schema 3: messages waiting in the outbox (and held for quiet hours or a threshold) stored their dates as text
/// already written for chat (`"dateText": "2025-01-02 15:04 UTC"`). They now store the instant
/// (`"date": {"unixSeconds", "timeZone", "hasTime"}`), so the renderer writes it at send time. This rewrites the
/// stored JSON in place, at any depth (a relay inside a held message, a post inside an answer). A text that does
/// not read as a date the bot wrote is dropped: that message then goes out without its date rather than not at all.
enum OutboxDateMigration {
  static func migrate(_ db: Database) throws {
    for table in ["outbox", "heldItem"] {
      let rows = try Row.fetchAll(db, sql: "SELECT id, payload FROM \(table) WHERE payload LIKE '%\"dateText\"%'")
      for row in rows {
        let id: Int64 = row["id"]
        let payload: String = row["payload"]
        guard let rewritten = rewrite(payload) else { continue }
        try db.execute(sql: "UPDATE \(table) SET payload = ? WHERE id = ?", arguments: [rewritten, id])
      }
    }
  }

  /// The payload with every `dateText` turned into a `date`; nil when it is not JSON (left as it was).
  static func rewrite(_ payload: String) -> String? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(payload.utf8), options: [.fragmentsAllowed])
    else { return nil }
    var converted = convert(object)
    // The message's own schema number (ChatBridge's `OutgoingMessage.schemaVersion`): 3 stores instants.
    if var message = converted as? [String: Any], message["v"] as? Int == 2 {
      message["v"] = 3
      converted = message
    }
    guard
      let data = try? JSONSerialization.data(
        withJSONObject: converted, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
    else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

  private static func convert(_ value: Any) -> Any {
    if let array = value as? [Any] { return array.map(convert) }
    guard var object = value as? [String: Any] else { return value }
    for (key, member) in object { object[key] = convert(member) }
    if let text = object.removeValue(forKey: "dateText") as? String, let date = date(from: text) {
      object["date"] = date
    }
    return object
  }

  /// `2025-01-02 15:04 UTC` (the zone as the bot wrote it: UTC or an abbreviation) or a day alone, `2025-01-02`.
  static func date(from text: String) -> [String: Any]? {
    let parts = text.split(separator: " ")
    let day = parts.first.map { $0.split(separator: "-").compactMap { Int($0) } } ?? []
    guard day.count == 3 else { return nil }
    var components = DateComponents(year: day[0], month: day[1], day: day[2], hour: 0, minute: 0)
    var zone = TimeZone.gmt
    var hasTime = false
    if parts.count == 3 {
      let time = parts[1].split(separator: ":").compactMap { Int($0) }
      guard time.count == 2 else { return nil }
      components.hour = time[0]
      components.minute = time[1]
      guard let named = parts[2] == "UTC" ? .gmt : TimeZone(abbreviation: String(parts[2])) else { return nil }
      zone = named
      hasTime = true
    } else if parts.count != 1 {
      return nil
    }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    guard let instant = calendar.date(from: components) else { return nil }
    return ["unixSeconds": instant.timeIntervalSince1970, "timeZone": zone.identifier, "hasTime": hasTime]
  }
}
