import GRDB

/// `v8-outboxCrashes` (issue 43): the outbox's poison-message guard. A row is marked in flight (`inFlightSince`)
/// before the bot hands it to a chat service and the mark is cleared with its outcome; a mark found at start means
/// the process died with the row in hand, which `crashes` counts. A row that stopped the bot twice is `parked`.
enum OutboxCrashMigration {
  static func migrate(_ db: Database) throws {
    try db.alter(table: "outbox") { t in
      t.add(column: "inFlightSince", .datetime)
      t.add(column: "crashes", .integer).notNull().defaults(to: 0)
    }
    // At start the bot looks for rows still in flight: few or none, so a partial index keeps that read small.
    try db.execute(sql: "CREATE INDEX outbox_in_flight ON outbox(id) WHERE inFlightSince IS NOT NULL")
  }
}
