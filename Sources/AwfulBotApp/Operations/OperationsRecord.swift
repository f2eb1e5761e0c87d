import ForumModel
import Foundation

/// What the daemon writes into the database's key-value table (namespace `ops`) for `awfulbot status`, which runs
/// in another process and can only see the database.
package enum OperationsRecord {
  package static let namespace = "ops"
  package static let daemonKey = "daemon"
  package static let forumKey = "forum"
  package static func transportKey(_ name: String) -> String { "transport:\(name)" }
  package static let storageKey = "storage"

  /// The running daemon, refreshed every heartbeat.
  package struct Daemon: Sendable, Codable, Hashable {
    package var pid: Int32
    package var version: String
    package var startedAt: Date
    package var lastSeen: Date
    /// Set on a graceful shutdown.
    package var stoppedAt: Date?
    /// Seconds between heartbeats, so a reader can tell a live daemon from a crashed one.
    package var heartbeatSeconds: Double
    /// The config file the daemon runs with (absent when it runs without one, as `demo` does, and in records of
    /// older versions).
    package var configuration: ConfigurationStamp? = nil
  }

  /// The database's disk as the daemon last saw it, written at every heartbeat on its own. Its text has the same
  /// length whatever it says, so on a full disk the new text takes the old one's place in a page the file already has,
  /// and the record still lands while anything that needs a new page is refused.
  package struct Storage: Sendable, Codable, Hashable {
    package static let full = "full"
    package static let free = "free"

    /// `full` while writes fail for lack of space, `free` otherwise.
    package var state: String
    /// When writes started failing (`full`); the check's time otherwise.
    package var since: Date
    package var checkedAt: Date

    /// Since when writes fail for lack of space; nil while the disk has room.
    package var fullSince: Date? { state == Self.full ? since : nil }

    package init(fullSince: Date?, checkedAt: Date) {
      state = fullSince == nil ? Self.free : Self.full
      since = fullSince ?? checkedAt
      self.checkedAt = checkedAt
    }
  }

  /// The forum session as the daemon last saw it.
  package struct Forum: Sendable, Codable, Hashable {
    package var loggedIn: Bool
    package var checkedAt: Date
    /// The wall in front of the forum at the heartbeat, and since when (absent while the forum answers itself).
    package var wall: ForumWallSighting?
  }

  /// One transport's connection as the daemon last saw it.
  package struct Transport: Sendable, Codable, Hashable {
    package var connected: Bool
    /// Why not connected, when not.
    package var problem: String?
    package var checkedAt: Date
    /// The last time it was seen connected: its last contact with the chat service.
    package var lastConnectedAt: Date?
    package var reconnects: Int
    /// Rooms where commands cannot be read (encrypted Matrix rooms); absent in records of older versions.
    package var unreadableRooms: [String]?
    /// Rooms the bot reads and writes encrypted, with whether their key went to every joined device.
    package var encryptedRooms: [String: Bool]?
    /// The end-to-end encryption identity, in a sentence (Matrix).
    package var encryptionIdentity: String?
  }

  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = .sortedKeys
    return encoder
  }()

  static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }()

  static func encode<T: Encodable>(_ value: T) -> String {
    (try? encoder.encode(value)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
  }

  static func decode<T: Decodable>(_ type: T.Type, from text: String?) -> T? {
    text.flatMap { try? decoder.decode(T.self, from: Data($0.utf8)) }
  }
}
