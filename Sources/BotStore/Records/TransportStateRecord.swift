import Foundation
import GRDB

/// One value of a transport's restart-surviving state (Matrix: access token, device id, sync position, crypto
/// state), kept through ChatBridge's `TransportStateStore` seam. What the keys mean is the transport's business: a
/// transport never reaches the store's types, so its state is a map from its own key names to text, one map per
/// configured transport.
package struct TransportStateRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "transportState"

  /// The transport's configured name.
  package var transport: String
  package var key: String
  package var value: String
  package var updatedAt: Date

  package init(transport: String, key: String, value: String, updatedAt: Date) {
    self.transport = transport
    self.key = key
    self.value = value
    self.updatedAt = updatedAt
  }
}
