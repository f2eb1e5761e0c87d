import Foundation
import GRDB

/// Names a room asked to hear about.
extension StoreTransaction {
  /// Returns false when the room already has that username.
  @discardableResult
  package func insertAlert(_ record: AlertRecord) throws -> Bool {
    try record.insert(db, onConflict: .ignore)
    return db.changesCount > 0
  }

  @discardableResult
  package func deleteAlert(transport: String, room: String, username: String) throws -> Bool {
    try db.execute(
      sql: "DELETE FROM alert WHERE transport = ? AND room = ? AND username = ? COLLATE NOCASE",
      arguments: [transport, room, username])
    return db.changesCount > 0
  }

  package func alerts(transport: String, room: String) throws -> [AlertRecord] {
    try AlertRecord.filter(Column("transport") == transport && Column("room") == room).order(Column("username"))
      .fetchAll(db)
  }

  package func allAlerts() throws -> [AlertRecord] {
    try AlertRecord.order(Column("transport"), Column("room"), Column("username")).fetchAll(db)
  }
}
