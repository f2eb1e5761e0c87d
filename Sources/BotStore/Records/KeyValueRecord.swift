import Foundation
import GRDB

/// Small state a transport or the engine keeps between runs (Matrix sync token, …), namespaced by owner.
package struct KeyValueRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "keyValue"

  package var namespace: String
  package var key: String
  package var value: String
  package var updatedAt: Date

  package init(namespace: String, key: String, value: String, updatedAt: Date) {
    self.namespace = namespace
    self.key = key
    self.value = value
    self.updatedAt = updatedAt
  }
}
