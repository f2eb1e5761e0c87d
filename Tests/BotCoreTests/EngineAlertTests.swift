import AwfulBotTestKit
import BotStore
import ChatBridge
import ForumModel
import Foundation
import Testing

@testable import BotCore

@Suite("Engine alerts, announcements and forums")
struct EngineAlertTests {
  @Test("a quote of or a mention of a registered username alerts the room; own posts and partial words do not")
  func quoteAndMentionAlerts() async throws {
    let h = try EngineHarness()
    h.forum.addThread("1", title: "Somewhere", posts: 1)
    #expect(try await h.engine.alerts.addAlert(room: h.room, username: "Alice"))
    #expect(try await !h.engine.alerts.addAlert(room: h.room, username: "alice"))
    await h.cycle()

    let quoting = h.forum.addPost(
      to: "1", author: "bob", body: [.quote(author: "Alice", postID: "5", [.text("original")]), .text("I disagree")])
    let mentioning = h.forum.addPost(to: "1", author: "carol", text: "as alice said, it is fine")
    h.forum.addPost(to: "1", author: "Alice", text: "I am Alice")
    h.forum.addPost(to: "1", author: "dave", text: "Alicetown is a place")
    await h.cycle()

    let keys = h.transport.sent.map(\.key)
    #expect(keys == ["test|!room|alert:\(quoting.id)", "test|!room|alert:\(mentioning.id)"])
    #expect(h.texts()[0].contains("Alice was quoted"))
    #expect(h.texts()[1].contains("Alice was mentioned"))
    #expect(try await h.engine.alerts.alerts(room: h.room) == ["Alice"])
    #expect(try await h.engine.alerts.removeAlert(room: h.room, username: "ALICE"))
  }

  @Test("announcements: the first poll seeds, a new one goes to every subscribed room once")
  func announcementsDedupe() async throws {
    let h = try EngineHarness()
    let other = RoomRef(transport: "test", room: "!other")
    h.forum.addAnnouncement(title: "Old news", body: "Already known")
    try await h.engine.subscriptions.subscribe(room: h.room, to: .announcements)
    try await h.engine.subscriptions.subscribe(room: other, to: .announcements)
    await h.engine.polling.poll(.announcements)
    await h.engine.polling.poll(.announcements)
    await h.dispatcher.drain()
    #expect(h.transport.sent.isEmpty)

    h.forum.addAnnouncement(title: "New rules", body: "Be nice")
    let report = await h.engine.polling.poll(.announcements)
    #expect(report.changed == 1)
    await h.engine.polling.poll(.announcements)
    await h.dispatcher.drain()
    #expect(h.texts().count == 1)
    #expect(h.texts().first?.contains("New rules") == true)
    #expect(h.texts(room: other.room).count == 1)
  }

  @Test("announcement backfill sends the current ones to the new room only, once")
  func announcementBackfill() async throws {
    let h = try EngineHarness()
    h.forum.addAnnouncement(title: "Current", body: "Text")
    let result = try await h.engine.subscriptions.subscribe(room: h.room, to: .announcements, backfill: 5)
    #expect(result.backfilled == 1)
    await h.engine.polling.poll(.announcements)
    await h.dispatcher.drain()
    #expect(h.texts().count == 1)
  }

  @Test("a forum's new threads reach rooms following it, through their filters")
  func forumNewThreads() async throws {
    let h = try EngineHarness()
    h.forum.addForumThread(forumID: "44", id: "500", title: "Old thread", author: "x")
    let filtered = RoomRef(transport: "test", room: "!filtered")
    let result = try await h.engine.subscriptions.subscribe(room: h.room, to: .forum(id: "44"))
    #expect(result.title == "Forum 44")
    try await h.engine.subscriptions.subscribe(
      room: filtered, to: .forum(id: "44"), filters: SubscriptionFilters(keywords: ["games"]))
    #expect(try await h.engine.polling.sources().contains(.forum(id: "44")))
    await h.engine.polling.poll(.forum(id: "44"))
    await h.dispatcher.drain()
    #expect(h.transport.sent.isEmpty)

    h.forum.addForumThread(forumID: "44", id: "501", title: "Video games thread", author: "alice")
    h.forum.addForumThread(forumID: "44", id: "502", title: "Cooking thread", author: "bob")
    await h.engine.polling.poll(.forum(id: "44"))
    await h.engine.polling.poll(.forum(id: "44"))
    await h.dispatcher.drain()
    #expect(h.texts().count == 2)
    #expect(h.texts()[0].contains("Video games thread"))
    #expect(h.texts()[1].contains("Cooking thread"))
    #expect(h.texts(room: filtered.room).count == 1)
  }

  @Test("undo reverts the recorded actions within the window only")
  func undo() async throws {
    let h = try EngineHarness()
    h.forum.addThread("9", posts: 1, bookmarked: false)
    try await h.engine.bookmarks.bookmark(threadID: "9")
    try await h.engine.undo.record(
      room: h.room, userID: "alice", summary: "bookmarked thread 9", actions: [.removeBookmark(threadID: "9")])
    #expect(try await h.engine.undo.take(room: h.room, userID: "bob") == nil)
    let entry = try #require(try await h.engine.undo.take(room: h.room, userID: "alice"))
    try await h.engine.undo.revert(entry)
    #expect(h.forum.thread("9")?.isBookmarked == false)
    #expect(try await h.engine.undo.take(room: h.room, userID: "alice") == nil)

    try await h.engine.undo.record(room: h.room, userID: "alice", summary: "x", actions: [.removeAlert(username: "x")])
    h.clock.advance(by: 11 * 60)
    #expect(try await h.engine.undo.take(room: h.room, userID: "alice") == nil)
  }
}
