import Foundation
import GRDB

extension StoreTransaction {
  // MARK: Announcements

  package func hasSeenAnnouncement(hash: String) throws -> Bool {
    try SeenAnnouncementRecord.exists(db, key: hash)
  }

  package func markAnnouncementSeen(_ record: SeenAnnouncementRecord) throws {
    try record.insert(db, onConflict: .ignore)
  }

  // MARK: Private messages

  /// Which of `ids` are not in the seen set.
  package func unseenPrivateMessages(ids: [String]) throws -> Set<String> {
    let seen = try SeenPrivateMessageRecord.fetchAll(db, keys: ids).map(\.id)
    return Set(ids).subtracting(seen)
  }

  package func markPrivateMessageSeen(id: String, at date: Date) throws {
    try SeenPrivateMessageRecord(id: id, seenAt: date).insert(db, onConflict: .ignore)
  }

  // MARK: Undo

  package func insertUndo(_ record: UndoRecord) throws -> UndoRecord {
    var copy = record
    copy.id = nil
    try copy.insert(db)
    return copy
  }

  /// The user's latest undo entry in the room created at or after `since`.
  package func latestUndo(transport: String, room: String, userID: String, since: Date) throws -> UndoRecord? {
    try UndoRecord
      .filter(Column("transport") == transport && Column("room") == room && Column("userID") == userID)
      .filter(Column("createdAt") >= since)
      .order(Column("id").desc)
      .fetchOne(db)
  }

  package func deleteUndo(id: Int64) throws {
    _ = try UndoRecord.deleteOne(db, key: id)
  }

  package func pruneUndo(before date: Date) throws {
    _ = try UndoRecord.filter(Column("createdAt") < date).deleteAll(db)
  }

  // MARK: Source health

  package func sourceHealth(source: String) throws -> SourceHealthRecord? {
    try SourceHealthRecord.fetchOne(db, key: source)
  }

  package func allSourceHealth() throws -> [SourceHealthRecord] {
    try SourceHealthRecord.order(Column("source")).fetchAll(db)
  }

  package func save(_ health: SourceHealthRecord) throws {
    try health.save(db)
  }

  // MARK: Alerts

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

  // MARK: Watched forums

  package func watchedForum(id: String) throws -> WatchedForumRecord? {
    try WatchedForumRecord.fetchOne(db, key: id)
  }

  package func save(_ forum: WatchedForumRecord) throws {
    try forum.save(db)
  }

  // MARK: Key-value

  package func value(namespace: String, key: String) throws -> String? {
    try KeyValueRecord.fetchOne(db, key: ["namespace": namespace, "key": key])?.value
  }

  package func setValue(_ value: String, namespace: String, key: String, now: Date) throws {
    try KeyValueRecord(namespace: namespace, key: key, value: value, updatedAt: now).save(db)
  }

  package func removeValue(namespace: String, key: String) throws {
    _ = try KeyValueRecord.deleteOne(db, key: ["namespace": namespace, "key": key])
  }

  // MARK: Forum session

  package func forumCookies() throws -> [ForumCookieRecord] {
    try ForumCookieRecord.order(Column("domain"), Column("name")).fetchAll(db)
  }

  /// Replaces the whole stored session with these cookies.
  package func replaceForumCookies(_ cookies: [ForumCookieRecord]) throws {
    _ = try ForumCookieRecord.deleteAll(db)
    for cookie in cookies { try cookie.insert(db) }
  }
}
