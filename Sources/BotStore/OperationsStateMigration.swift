import Foundation
import GRDB

/// `v7-operationsState` (issue 36): the last of the key-value table moves into tables of its own, and the table goes.
/// - Namespace `ops` (the daemon's heartbeat for `status`, JSON per key) becomes `daemonHeartbeat`,
///   `forumSessionState`, `transportConnection` (one row per transport) and `storageState`.
/// - Namespaces `transport:<name>` (each transport's own state) become `transportState`, keyed by transport and key.
/// - The disk probe (namespace `storage`, only ever present during a probe) gets `storageProbe`.
/// Rows already stored move with them, so an upgraded Matrix transport keeps its device, keys and sync position,
/// and `status` still shows a stopped daemon as stopped.
enum OperationsStateMigration {
  static func migrate(_ db: Database) throws {
    try db.create(table: "daemonHeartbeat") { t in
      t.primaryKey("id", .integer).check { $0 == 1 }
      t.column("pid", .integer).notNull()
      t.column("version", .text).notNull()
      t.column("startedAt", .datetime).notNull()
      t.column("lastSeen", .datetime).notNull()
      t.column("stoppedAt", .datetime)
      t.column("heartbeatSeconds", .double).notNull()
      t.column("configuration", .text)
    }
    try db.create(table: "forumSessionState") { t in
      t.primaryKey("id", .integer).check { $0 == 1 }
      t.column("loggedIn", .boolean).notNull()
      t.column("checkedAt", .datetime).notNull()
      t.column("wall", .text)
    }
    try db.create(table: "transportConnection") { t in
      t.primaryKey("name", .text)
      t.column("connected", .boolean).notNull()
      t.column("problem", .text)
      t.column("checkedAt", .datetime).notNull()
      t.column("lastConnectedAt", .datetime)
      t.column("reconnects", .integer).notNull()
      t.column("unreadableRooms", .text)
      t.column("encryptedRooms", .text)
      t.column("encryptionIdentity", .text)
    }
    try db.create(table: "storageState") { t in
      t.primaryKey("id", .integer).check { $0 == 1 }
      t.column("state", .text).notNull()
      t.column("since", .datetime).notNull()
      t.column("checkedAt", .datetime).notNull()
    }
    try db.create(table: "storageProbe") { t in
      t.primaryKey("id", .integer)
      t.column("filler", .blob).notNull()
    }
    try db.create(table: "transportState") { t in
      t.column("transport", .text).notNull()
      t.column("key", .text).notNull()
      t.column("value", .text).notNull()
      t.column("updatedAt", .datetime).notNull()
      t.primaryKey(["transport", "key"])
    }
    try moveKeyValues(db)
    try db.drop(table: "keyValue")
  }

  private static func moveKeyValues(_ db: Database) throws {
    let transportPrefix = "transport:"
    for row in try Row.fetchAll(db, sql: "SELECT namespace, key, value, updatedAt FROM keyValue") {
      let namespace: String = row["namespace"]
      let key: String = row["key"]
      let value: String = row["value"]
      if namespace.hasPrefix(transportPrefix) {
        try TransportStateRecord(
          transport: String(namespace.dropFirst(transportPrefix.count)), key: key, value: value,
          updatedAt: row["updatedAt"]
        ).insert(db)
      } else if namespace == "ops" {
        // A record that does not read (a version that wrote other fields) is left behind: the next heartbeat writes
        // it again.
        try? moveOperationsRecord(key: key, json: value, db)
      }
    }
  }

  /// One `ops` record (JSON with ISO 8601 dates, as AwfulBotApp's `OperationsRecord` wrote it) into its table.
  private static func moveOperationsRecord(key: String, json: String, _ db: Database) throws {
    guard let fields = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return }
    let dates = ISO8601DateFormatter()
    func date(_ name: String) -> Date? { (fields[name] as? String).flatMap(dates.date(from:)) }
    func nested(_ name: String) throws -> String? {
      guard let object = fields[name], !(object is NSNull) else { return nil }
      return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
    switch key {
    case "daemon":
      guard let pid = fields["pid"] as? Int, let version = fields["version"] as? String,
        let startedAt = date("startedAt"), let lastSeen = date("lastSeen"),
        let heartbeat = fields["heartbeatSeconds"] as? Double
      else { return }
      try DaemonHeartbeatRecord(
        pid: Int32(pid), version: version, startedAt: startedAt, lastSeen: lastSeen, stoppedAt: date("stoppedAt"),
        heartbeatSeconds: heartbeat, configuration: try nested("configuration")
      ).save(db)
    case "forum":
      guard let loggedIn = fields["loggedIn"] as? Bool, let checkedAt = date("checkedAt") else { return }
      try ForumSessionStateRecord(loggedIn: loggedIn, checkedAt: checkedAt, wall: try nested("wall")).save(db)
    case "storage":
      guard let state = fields["state"] as? String, let since = date("since"), let checkedAt = date("checkedAt")
      else { return }
      try StorageStateRecord(fullSince: state == StorageStateRecord.full ? since : nil, checkedAt: checkedAt).save(db)
    case let key where key.hasPrefix("transport:"):
      guard let connected = fields["connected"] as? Bool, let checkedAt = date("checkedAt"),
        let reconnects = fields["reconnects"] as? Int
      else { return }
      try TransportConnectionRecord(
        name: String(key.dropFirst("transport:".count)), connected: connected, problem: fields["problem"] as? String,
        checkedAt: checkedAt, lastConnectedAt: date("lastConnectedAt"), reconnects: reconnects,
        unreadableRooms: fields["unreadableRooms"] as? [String],
        encryptedRooms: fields["encryptedRooms"] as? [String: Bool],
        encryptionIdentity: fields["encryptionIdentity"] as? String
      ).save(db)
    default:
      return
    }
  }
}
