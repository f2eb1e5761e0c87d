import GRDB

/// The schema, as named migrations. A migration that has landed is never edited: change the schema by appending a
/// new one ("v2", …), because databases in the field have already run the old ones.
enum BotMigrations {
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1", migrate: v1)
    migrator.registerMigration("v2-privateMessages", migrate: v2PrivateMessages)
    migrator.registerMigration("v3-outboxDates", migrate: OutboxDateMigration.migrate)
    migrator.registerMigration("v4-replies", migrate: v4Replies)
    migrator.registerMigration("v5-pollState", migrate: PollStateMigration.migrate)
    migrator.registerMigration("v6-chatState", migrate: ChatStateMigration.migrate)
    migrator.registerMigration("v7-operationsState", migrate: OperationsStateMigration.migrate)
    migrator.registerMigration("v8-outboxCrashes", migrate: OutboxCrashMigration.migrate)
    migrator.registerMigration("v9-lepers", migrate: LepersMigration.migrate)
    migrator.registerMigration("v10-roomDisplay", migrate: RoomDisplayMigration.migrate)
    return migrator
  }

  /// Answering relays from chat: each relay row's short reference (`r7`, for transports without native replies),
  /// found again by it or by the chat service's id of the message (the receipt) for 30 days; who may post from a
  /// room (`replyRole`: viewer, member, admin or off; NULL is the default, admin) and whether reactions act there.
  private static func v4Replies(_ db: Database) throws {
    try db.alter(table: "outbox") { t in
      t.add(column: "reference", .text)
    }
    try db.create(index: "outbox_on_receipt", on: "outbox", columns: ["transport", "room", "receipt"])
    try db.create(index: "outbox_on_reference", on: "outbox", columns: ["transport", "room", "reference"])
    try db.alter(table: "room") { t in
      t.add(column: "replyRole", .text)
      t.add(column: "reactions", .boolean).notNull().defaults(to: true)
    }
  }

  /// Private messages already told (or seeded at the first poll), so each is alerted once across restarts.
  private static func v2PrivateMessages(_ db: Database) throws {
    try db.create(table: "seenPrivateMessage") { t in
      t.primaryKey("id", .text)
      t.column("seenAt", .datetime).notNull()
    }
  }

  private static func v1(_ db: Database) throws {
    try db.create(table: "forumCookie") { t in
      t.column("name", .text).notNull()
      t.column("domain", .text).notNull()
      t.column("path", .text).notNull()
      t.column("value", .text).notNull()
      t.column("expiresAt", .datetime)
      t.column("isSecure", .boolean).notNull().defaults(to: false)
      t.column("isHTTPOnly", .boolean).notNull().defaults(to: false)
      t.primaryKey(["name", "domain", "path"])
    }

    try db.create(table: "thread") { t in
      t.primaryKey("id", .text)
      t.column("title", .text).notNull().defaults(to: "")
      t.column("forumID", .text)
      t.column("replyCount", .integer).notNull().defaults(to: 0)
      t.column("lastPostAt", .datetime)
      t.column("lastPostAuthor", .text)
      // The relay cursor: highest post index (1-based in the thread) and its post id already relayed.
      t.column("cursorIndex", .integer).notNull().defaults(to: 0)
      t.column("cursorPostID", .text)
      t.column("isBookmarked", .boolean).notNull().defaults(to: false)
      t.column("star", .integer)
      t.column("addedByBot", .boolean).notNull().defaults(to: false)
      t.column("isClosed", .boolean).notNull().defaults(to: false)
      t.column("firstSeenAt", .datetime).notNull()
      t.column("updatedAt", .datetime).notNull()
    }

    try db.create(table: "room") { t in
      t.column("transport", .text).notNull()
      t.column("room", .text).notNull()
      t.column("mode", .text).notNull().defaults(to: "each")
      t.column("summaryThreshold", .integer)
      t.column("digestSchedule", .text)
      t.column("lastDigestAt", .datetime)
      t.column("quietHours", .text)
      t.column("quietUntil", .datetime)
      t.column("unfurl", .boolean).notNull().defaults(to: true)
      t.column("replayCap", .integer).notNull().defaults(to: 20)
      t.column("isPaused", .boolean).notNull().defaults(to: false)
      t.column("createdAt", .datetime).notNull()
      t.primaryKey(["transport", "room"])
    }

    try db.create(table: "subscription") { t in
      t.autoIncrementedPrimaryKey("id")
      t.column("transport", .text).notNull()
      t.column("room", .text).notNull()
      t.column("kind", .text).notNull()
      t.column("argument", .text).notNull().defaults(to: "")
      t.column("includeAuthors", .jsonText).notNull().defaults(to: "[]")
      t.column("excludeAuthors", .jsonText).notNull().defaults(to: "[]")
      t.column("keywords", .jsonText).notNull().defaults(to: "[]")
      t.column("opOnly", .boolean).notNull().defaults(to: false)
      t.column("createdAt", .datetime).notNull()
      t.column("createdBy", .text)
      t.foreignKey(["transport", "room"], references: "room", onDelete: .cascade)
      t.uniqueKey(["transport", "room", "kind", "argument"])
    }
    try db.create(index: "subscription_on_kind", on: "subscription", columns: ["kind", "argument"])

    try db.create(table: "outbox") { t in
      t.autoIncrementedPrimaryKey("id")
      t.column("transport", .text).notNull()
      t.column("room", .text).notNull()
      t.column("kind", .text).notNull()
      t.column("payload", .jsonText).notNull()
      t.column("idempotencyKey", .text).notNull().unique()
      t.column("createdAt", .datetime).notNull()
      t.column("attempts", .integer).notNull().defaults(to: 0)
      t.column("nextAttemptAt", .datetime)
      t.column("state", .text).notNull().defaults(to: "pending")
      t.column("deliveredAt", .datetime)
      t.column("receipt", .text)
      t.column("lastError", .text)
      t.column("deadLetteredAt", .datetime)
      // What the row is about, for `why`.
      t.column("threadID", .text)
      t.column("postID", .text)
      t.column("reason", .text)
    }
    try db.create(index: "outbox_queue", on: "outbox", columns: ["transport", "state", "room", "id"])
    try db.create(index: "outbox_on_post", on: "outbox", columns: ["postID"])

    try db.create(table: "heldItem") { t in
      t.autoIncrementedPrimaryKey("id")
      t.column("transport", .text).notNull()
      t.column("room", .text).notNull()
      t.column("kind", .text).notNull()
      t.column("threadID", .text)
      t.column("threadTitle", .text)
      t.column("postID", .text)
      t.column("payload", .jsonText).notNull()
      t.column("reason", .text)
      t.column("createdAt", .datetime).notNull()
      t.uniqueKey(["transport", "room", "kind", "postID"])
    }
    try db.create(index: "heldItem_on_room", on: "heldItem", columns: ["transport", "room", "id"])

    try db.create(table: "seenAnnouncement") { t in
      t.primaryKey("hash", .text)
      t.column("title", .text)
      t.column("seenAt", .datetime).notNull()
    }

    try db.create(table: "undoEntry") { t in
      t.autoIncrementedPrimaryKey("id")
      t.column("transport", .text).notNull()
      t.column("room", .text).notNull()
      t.column("userID", .text).notNull()
      t.column("summary", .text).notNull()
      t.column("actions", .jsonText).notNull()
      t.column("createdAt", .datetime).notNull()
    }
    try db.create(index: "undoEntry_on_user", on: "undoEntry", columns: ["transport", "room", "userID", "id"])

    try db.create(table: "sourceHealth") { t in
      t.primaryKey("source", .text)
      t.column("lastAttemptAt", .datetime)
      t.column("lastSuccessAt", .datetime)
      t.column("lastErrorAt", .datetime)
      t.column("lastError", .text)
      t.column("consecutiveErrors", .integer).notNull().defaults(to: 0)
      t.column("totalErrors", .integer).notNull().defaults(to: 0)
      t.column("totalPolls", .integer).notNull().defaults(to: 0)
      t.column("nextAttemptAt", .datetime)
    }

    try db.create(table: "alert") { t in
      t.column("transport", .text).notNull()
      t.column("room", .text).notNull()
      t.column("username", .text).notNull().collate(.nocase)
      t.column("createdAt", .datetime).notNull()
      t.column("createdBy", .text)
      t.primaryKey(["transport", "room", "username"])
    }

    try db.create(table: "watchedForum") { t in
      t.primaryKey("forumID", .text)
      t.column("title", .text)
      t.column("highestThreadID", .integer).notNull().defaults(to: 0)
      t.column("updatedAt", .datetime).notNull()
    }

    try db.create(table: "keyValue") { t in
      t.column("namespace", .text).notNull()
      t.column("key", .text).notNull()
      t.column("value", .text).notNull()
      t.column("updatedAt", .datetime).notNull()
      t.primaryKey(["namespace", "key"])
    }
  }
}
