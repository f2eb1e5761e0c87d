import Foundation
import GRDB

/// Small values kept by namespace (a transport's session, sync position and crypto state).
extension StoreTransaction {
  package func value(namespace: String, key: String) throws -> String? {
    try KeyValueRecord.fetchOne(db, key: ["namespace": namespace, "key": key])?.value
  }

  package func setValue(_ value: String, namespace: String, key: String, now: Date) throws {
    try KeyValueRecord(namespace: namespace, key: key, value: value, updatedAt: now).save(db)
  }

  package func removeValue(namespace: String, key: String) throws {
    _ = try KeyValueRecord.deleteOne(db, key: ["namespace": namespace, "key": key])
  }
}
