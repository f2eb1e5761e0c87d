import GRDB

/// `v9-lepers` (issue 44): the Leper's Colony entries already relayed (or recorded when a room first followed the
/// Colony), by identity. The forum gives a row no id of its own, so the engine names each by a hash of what never
/// changes in it (`PunishmentIdentity`); the date is kept to say how old the set's rows are.
enum LepersMigration {
  static func migrate(_ db: Database) throws {
    try db.create(table: "seenPunishment") { t in
      t.primaryKey("identity", .text)
      t.column("punishedAt", .datetime).notNull()
      t.column("seenAt", .datetime).notNull()
    }
  }
}
