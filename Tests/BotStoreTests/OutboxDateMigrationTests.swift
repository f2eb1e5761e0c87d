import AwfulBotTestKit
import Foundation
import GRDB
import Testing

@testable import BotStore

/// Schema 3 turns the dates that version 2 rows stored as chat text into instants, in place, so rows queued before
/// an upgrade still go out with their dates (now written by the renderer).
@Suite("Outbox date migration")
struct OutboxDateMigrationTests {
  /// A version 2 post relay as the bot wrote it (keys sorted), its date in UTC.
  private let postPayload = """
    {"content":{"post":{"_0":{"address":{"page":1,"postID":"7","threadID":"42"},"author":"Alice",\
    "body":[],"dateText":"2025-01-02 15:04 UTC","excerptLength":300,"link":"https://x/p7",\
    "threadLink":"https://x/t42","threadTitle":"Cats"}}},"v":2}
    """

  @Test("a queued row written by version 2 reads its date as an instant after the upgrade")
  func migratesQueuedRows() throws {
    let directory = TestScratch.path("awfulbot-outbox-dates")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("bot.sqlite").path

    let old = try DatabaseQueue(path: path)
    try BotMigrations.migrator.migrate(old, upTo: "v2-privateMessages")
    try old.write { db in
      try db.execute(
        sql: """
          INSERT INTO outbox (transport, room, kind, payload, idempotencyKey, createdAt, attempts, state)
          VALUES ('irc', '#cats', 'post', ?, 'k1', '2025-01-02 15:05:00.000', 0, 'pending')
          """, arguments: [postPayload])
    }
    try old.close()

    let database = try BotDatabase(path: path)
    let payload = try #require(try database.readNow { try $0.outboxRow(idempotencyKey: "k1") }?.payload)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
    #expect(json["v"] as? Int == 3)
    let post = try #require(
      ((json["content"] as? [String: Any])?["post"] as? [String: Any])?["_0"] as? [String: Any])
    #expect(post["dateText"] == nil)
    let date = try #require(post["date"] as? [String: Any])
    // 2025-01-02 15:04 UTC.
    #expect(date["unixSeconds"] as? Double == 1_735_830_240)
    #expect(date["timeZone"] as? String == TimeZone.gmt.identifier)
    #expect(date["hasTime"] as? Bool == true)
    #expect(post["author"] as? String == "Alice")
  }

  @Test("dates in other zones, days without a time, and text that is no date")
  func readsEachForm() throws {
    let day = try #require(OutboxDateMigration.date(from: "2025-01-02"))
    #expect(day["hasTime"] as? Bool == false)
    #expect(day["unixSeconds"] as? Double == 1_735_776_000)
    let eastern = try #require(OutboxDateMigration.date(from: "2025-01-02 10:04 EST"))
    #expect(eastern["unixSeconds"] as? Double == 1_735_830_240)
    #expect(OutboxDateMigration.date(from: "yesterday") == nil)
    #expect(OutboxDateMigration.date(from: "2025-01-02 15:04 NOWHERE") == nil)
    // An unreadable date is dropped, the rest of the message kept.
    let rewritten = try #require(OutboxDateMigration.rewrite(#"{"dateText":"soon","author":"Bob"}"#))
    #expect(rewritten == #"{"author":"Bob"}"#)
  }
}
