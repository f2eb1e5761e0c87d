import Foundation
import GRDB

/// One transport's connection as the daemon's last heartbeat saw it.
package struct TransportConnectionRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "transportConnection"

  /// The transport's configured name.
  package var name: String
  package var connected: Bool
  /// Why not connected, when not.
  package var problem: String?
  package var checkedAt: Date
  /// The last time it was seen connected: its last contact with the chat service.
  package var lastConnectedAt: Date?
  package var reconnects: Int
  /// Rooms where commands cannot be read (encrypted Matrix rooms), stored as a JSON array.
  package var unreadableRooms: [String]?
  /// Rooms the bot reads and writes encrypted, with whether their key went to every joined device (JSON).
  package var encryptedRooms: [String: Bool]?
  /// The end-to-end encryption identity, in a sentence (Matrix).
  package var encryptionIdentity: String?

  package init(
    name: String, connected: Bool, problem: String?, checkedAt: Date, lastConnectedAt: Date?, reconnects: Int,
    unreadableRooms: [String]?, encryptedRooms: [String: Bool]?, encryptionIdentity: String?
  ) {
    self.name = name
    self.connected = connected
    self.problem = problem
    self.checkedAt = checkedAt
    self.lastConnectedAt = lastConnectedAt
    self.reconnects = reconnects
    self.unreadableRooms = unreadableRooms
    self.encryptedRooms = encryptedRooms
    self.encryptionIdentity = encryptionIdentity
  }
}
