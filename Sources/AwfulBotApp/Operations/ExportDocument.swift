import BotStore
import ChatBridge
import Foundation

/// Rooms, subscriptions (with their filters), alerts, thread cursors, watched forums, seen announcements and Leper's
/// Colony entries, and which sources were seeded, as JSON: what a bot needs to carry on elsewhere without replaying
/// or missing anything (`awfulbot export` / `import`). Undelivered outbox rows are not included: let the outbox drain
/// (`awfulbot status`) before moving.
package struct ExportDocument: Sendable, Codable, Hashable {
  package static let formatName = "awfulbot-export"
  /// 2 added the Leper's Colony entries and the seeded sources; a version 1 export reads as having none.
  package static let currentVersion = 2

  package var format: String
  package var version: Int
  package var exportedAt: Date
  package var botVersion: String
  package var rooms: [RoomRecord]
  package var subscriptions: [SubscriptionRecord]
  package var alerts: [AlertRecord]
  package var threads: [ThreadRecord]
  package var watchedForums: [WatchedForumRecord]
  package var seenAnnouncements: [SeenAnnouncementRecord]
  /// Nil in a version 1 export.
  package var seenPunishments: [SeenPunishmentRecord]?
  /// The sources whose first contents were recorded unrelayed. Without them the new host would record the
  /// announcements and the Colony again at its first read, and never tell what came between the two hosts.
  /// Nil in a version 1 export.
  package var seededSources: [SeededSourceRecord]?

  package var rowCount: Int {
    rooms.count + subscriptions.count + alerts.count + threads.count + watchedForums.count + seenAnnouncements.count
      + (seenPunishments?.count ?? 0) + (seededSources?.count ?? 0)
  }

  /// The summary line both commands print.
  package var summary: String {
    [
      NameList.count(rooms.count, "room"), NameList.count(subscriptions.count, "subscription"),
      NameList.count(alerts.count, "alert"), NameList.count(threads.count, "thread cursor"),
      NameList.count(watchedForums.count, "watched forum"),
      NameList.count(seenAnnouncements.count, "seen announcement"),
      NameList.count(seenPunishments?.count ?? 0, "seen Leper's Colony entry", plural: "seen Leper's Colony entries"),
    ].joined(separator: ", ")
  }

  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    // Milliseconds, as the database keeps them, so an export read back compares equal.
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date))
    }
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
      if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 date: \(text)")
    }
    return decoder
  }()

  package func encoded() throws -> Data { try Self.encoder.encode(self) }

  package static func decode(_ data: Data) throws -> ExportDocument {
    let document: ExportDocument
    do {
      document = try decoder.decode(ExportDocument.self, from: data)
    } catch {
      throw DataTransferError.unreadable("\(error)")
    }
    guard document.format == formatName else { throw DataTransferError.unreadable("not an awfulbot export") }
    guard document.version <= currentVersion else {
      throw DataTransferError.unreadable(
        "export format version \(document.version) is newer than this awfulbot understands (\(currentVersion)); upgrade first"
      )
    }
    return document
  }
}

package enum DataTransferError: Error, Sendable, CustomStringConvertible {
  case unreadable(String)

  package var description: String {
    switch self {
    case .unreadable(let reason): "cannot read the export: \(reason)"
    }
  }
}
