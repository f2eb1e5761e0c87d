import Foundation
import GRDB

/// The daemon's heartbeat for `status` and `restore` (v7), and each transport's own state (`TransportStateStore`).
extension StoreTransaction {
  package func daemonHeartbeat() throws -> DaemonHeartbeatRecord? {
    try DaemonHeartbeatRecord.fetchOne(db)
  }

  package func save(_ heartbeat: DaemonHeartbeatRecord) throws {
    try heartbeat.save(db)
  }

  package func forumSessionState() throws -> ForumSessionStateRecord? {
    try ForumSessionStateRecord.fetchOne(db)
  }

  package func save(_ state: ForumSessionStateRecord) throws {
    try state.save(db)
  }

  /// Every transport's last seen connection, by name.
  package func transportConnections() throws -> [String: TransportConnectionRecord] {
    Dictionary(try TransportConnectionRecord.fetchAll(db).map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
  }

  package func save(_ connection: TransportConnectionRecord) throws {
    try connection.save(db)
  }

  package func storageState() throws -> StorageStateRecord? {
    try StorageStateRecord.fetchOne(db)
  }

  package func save(_ state: StorageStateRecord) throws {
    try state.save(db)
  }

  /// One value of a transport's own state.
  package func transportState(transport: String, key: String) throws -> String? {
    try TransportStateRecord.fetchOne(db, key: ["transport": transport, "key": key])?.value
  }

  /// Sets (or, with nil, removes) one value of a transport's own state.
  package func setTransportState(_ value: String?, transport: String, key: String, now: Date) throws {
    if let value {
      try TransportStateRecord(transport: transport, key: key, value: value, updatedAt: now).save(db)
    } else {
      _ = try TransportStateRecord.deleteOne(db, key: ["transport": transport, "key": key])
    }
  }

  /// Removes every value of a transport's own state whose key starts with `prefix`. Returns how many.
  @discardableResult
  package func removeTransportState(transport: String, keyPrefix prefix: String) throws -> Int {
    try db.execute(
      sql: "DELETE FROM transportState WHERE transport = ? AND substr(key, 1, ?) = ?",
      arguments: [transport, prefix.unicodeScalars.count, prefix])
    return db.changesCount
  }

  /// The transports that have state of their own, by name.
  package func transportsWithState() throws -> [String] {
    try String.fetchAll(db, sql: "SELECT DISTINCT transport FROM transportState ORDER BY transport")
  }
}
