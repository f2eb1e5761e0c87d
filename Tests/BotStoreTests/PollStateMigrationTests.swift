import AwfulBotTestKit
import Foundation
import GRDB
import Testing

@testable import BotStore

/// Schema 5 moves the poller's paces and list marks out of the key-value table into tables of their own, so a bot
/// upgraded while it runs keeps its place in every list (without its mark, the next poll would read the whole
/// bookmarks list at once).
@Suite("Poll state migration")
struct PollStateMigrationTests {
  @Test("paces and list marks stored as JSON by schema 4 are rows of pollPace and listMark after the upgrade")
  func movesPacesAndMarks() throws {
    // As schema 4 wrote them: Foundation's JSON, dates as seconds since 2001-01-01.
    let file = try OlderSchemaFile(
      "awfulbot-poll-state", upTo: "v4-replies",
      rows: [
        ("poll", "pace:bookmarks", #"{"seconds":40,"reason":"quiet","quietReads":2,"ceilingSeconds":60}"#),
        ("poll", "list:bookmarks", #"{"newestLastPost":756000000,"lastFullSweep":755999000,"isOrdered":true}"#),
        ("poll", "list:forum:273", #"{"newestLastPost":756000060,"isOrdered":false}"#),
        ("poll", "pace:forum:273", "not json"),
      ])
    defer { file.remove() }
    let path = file.path

    let database = try BotDatabase(path: path)
    let (paces, bookmarks, forum, left) = try database.readNow { tx in
      (
        try tx.pollPaces(), try tx.listMark(list: "bookmarks"), try tx.listMark(list: "forum:273"),
        try tx.db.tableExists("keyValue")
      )
    }
    #expect(paces.keys.sorted() == ["bookmarks"])
    #expect(paces["bookmarks"]?.seconds == 40 && paces["bookmarks"]?.reason == "quiet")
    #expect(paces["bookmarks"]?.quietReads == 2 && paces["bookmarks"]?.quietSeconds == nil)
    #expect(bookmarks?.newestLastPost == Date(timeIntervalSinceReferenceDate: 756_000_000))
    #expect(bookmarks?.lastFullSweep == Date(timeIntervalSinceReferenceDate: 755_999_000))
    #expect(bookmarks?.isOrdered == true)
    #expect(forum?.isOrdered == false && forum?.lastFullSweep == nil)
    #expect(!left, "the key-value table is gone once schema 7 has moved its last rows")
    try database.close()
  }
}

/// Schema 6 moves the posts made from chat, the seeded sources and the rooms a reload paused out of the key-value
/// table, keeping what was stored.
@Suite("Chat state migration")
struct ChatStateMigrationTests {
  @Test("posts made from chat, seeded sources and rooms paused by a reload are rows of their tables after the upgrade")
  func movesChatState() async throws {
    let file = try OlderSchemaFile(
      "awfulbot-chat-state", upTo: "v5-pollState",
      rows: [
        ("postedFromChat", "irc\u{1F}#goons\u{1F}7001", "2025-01-02T15:04:00Z"),
        ("engine", "announcementsSeeded", "2"),
        ("engine", "privateMessagesSeeded", "1"),
        ("pausedByConfig", "my irc #gone", "1"),
      ])
    defer { file.remove() }
    let path = file.path

    let database = try BotDatabase(path: path)
    let (posted, dates, announcements, inbox, paused, left) = try database.readNow { tx in
      (
        try tx.wasPostedFromChat(transport: "irc", room: "#goons", postID: "7001"),
        try tx.allPostedFromChat().map(\.postedAt), try tx.seedScheme(source: "announcements"),
        try tx.seedScheme(source: "privateMessages"),
        try ConfigPausedRoomRecord.fetchAll(tx.db).map { [$0.transport, $0.room] },
        try tx.db.tableExists("keyValue")
      )
    }
    #expect(posted && dates == [Date(timeIntervalSince1970: 1_735_830_240)])
    #expect(announcements == "2" && inbox == "ids")
    #expect(paused == [["my irc", "#gone"]])
    #expect(!left)
    let cleared = try await database.write { tx in
      [
        try tx.clearPausedByConfig(transport: "my irc", room: "#gone"),
        try tx.clearPausedByConfig(transport: "my irc", room: "#gone"),
      ]
    }
    #expect(cleared == [true, false])
    try database.close()
  }
}
