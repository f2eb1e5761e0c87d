import AwfulBotTestKit
import BotStore
import ChatBridge
import ForumModel
import Foundation
import Testing

@testable import BotCore

@Suite("Engine room modes and quiet hours")
struct EngineModeTests {
  @Test("summary mode: more than K new posts in a thread become one message naming the authors")
  func summaryMode() async throws {
    let h = try EngineHarness()
    h.forum.addThread("1", title: "Busy thread", posts: 1)
    try await h.engine.subscriptions.subscribe(room: h.room, to: .bookmarks)
    try await h.engine.roomSettings.update(room: h.room) { $0.mode = .summary(threshold: 3) }
    await h.cycle()

    let posts = ["alice", "bob", "alice", "carol", "dave"].map { h.forum.addPost(to: "1", author: $0) }
    await h.cycle()
    let why = try await h.engine.statusReports.why(postID: posts[1].id, room: h.room)
    #expect(why.entries.map(\.kind) == ["summary"])
    #expect(why.entries.first?.state == "delivered")
    #expect(h.texts().count == 1)
    let summary = try #require(h.texts().first)
    #expect(summary.contains("5 new posts"))
    #expect(summary.contains("Busy thread"))
    #expect(summary.contains("alice") && summary.contains("bob") && summary.contains("carol"))

    h.forum.addPost(to: "1", author: "erin", text: "just one")
    h.forum.addPost(to: "1", author: "frank", text: "and two")
    await h.cycle()
    #expect(h.texts().count == 3)
    #expect(h.texts()[1].contains("just one"))
  }

  @Test("digest mode turned off before its digest: what it held comes at once, headed as held for the digest")
  func digestModeTurnedOff() async throws {
    let h = try EngineHarness()
    h.forum.addThread("1", title: "Thread one", posts: 1)
    try await h.engine.subscriptions.subscribe(room: h.room, to: .bookmarks)
    await h.cycle()
    _ = try await h.engine.roomSettings.update(room: h.room) {
      $0.mode = .digest(.daily(TimeOfDay(hour: 23, minute: 59)!))
    }
    h.forum.addPost(to: "1", author: "alice")
    await h.cycle()
    #expect(h.transport.sent.isEmpty)

    _ = try await h.engine.roomSettings.update(room: h.room) { $0.mode = .each }
    try await h.engine.outbox.releaseHeld()
    await h.dispatcher.drain()
    let digest = try #require(h.texts().first)
    // The room was never quiet: the heading says what held the post.
    #expect(digest.hasPrefix("Held for this room's digest: 1 new post in 1 thread"), "\(digest)")
  }

  @Test("paused, then resumed: the held posts come as one digest that says the room was paused")
  func pausedThenResumed() async throws {
    let h = try EngineHarness()
    h.forum.addThread("1", title: "Thread one", posts: 1)
    try await h.engine.subscriptions.subscribe(room: h.room, to: .bookmarks)
    await h.cycle()
    _ = try await h.engine.roomSettings.update(room: h.room) { $0.isPaused = true }
    h.forum.addPost(to: "1", author: "alice")
    h.forum.addPost(to: "1", author: "bob")
    await h.cycle()
    #expect(h.transport.sent.isEmpty)

    _ = try await h.engine.roomSettings.update(room: h.room) { $0.isPaused = false }
    try await h.engine.outbox.releaseHeld()
    await h.dispatcher.drain()
    let digest = try #require(h.texts().first)
    #expect(digest.hasPrefix("While this room was paused: 2 new posts in 1 thread"), "\(digest)")
  }

  @Test("hourly digest: posts are held and released as one digest message at the top of the hour")
  func hourlyDigest() async throws {
    let h = try EngineHarness()
    h.forum.addThread("1", title: "Thread one", posts: 1)
    h.forum.addThread("2", title: "Thread two", posts: 1)
    try await h.engine.subscriptions.subscribe(room: h.room, to: .bookmarks)
    try await h.engine.roomSettings.update(room: h.room) { $0.mode = .digest(.hourly) }
    await h.cycle()  // 10:10

    h.forum.addPost(to: "1", author: "alice")
    h.forum.addPost(to: "1", author: "bob")
    h.forum.addPost(to: "2", author: "carol")
    await h.cycle()
    #expect(h.transport.sent.isEmpty)
    #expect(try await h.engine.statusReports.status(room: h.room).held == 3)

    h.clock.advance(toNext: 10, 55)
    try await h.engine.outbox.releaseHeld()
    await h.dispatcher.drain()
    #expect(h.transport.sent.isEmpty)

    h.clock.advance(toNext: 11, 0)
    try await h.engine.outbox.releaseHeld()
    await h.dispatcher.drain()
    #expect(h.texts().count == 1)
    let digest = try #require(h.texts().first)
    #expect(digest.contains("3 new posts in 2 threads"))
    #expect(digest.contains("Thread one") && digest.contains("Thread two"))
    #expect(try await h.engine.statusReports.status(room: h.room).held == 0)

    // Nothing more until new posts and the next slot.
    h.clock.advance(by: 60)
    try await h.engine.outbox.releaseHeld()
    await h.dispatcher.drain()
    #expect(h.texts().count == 1)
  }

  @Test("daily digest at HH:MM")
  func dailyDigest() async throws {
    let h = try EngineHarness()
    h.forum.addThread("1", posts: 1)
    try await h.engine.subscriptions.subscribe(room: h.room, to: .bookmarks)
    try await h.engine.roomSettings.update(room: h.room) { $0.mode = .digest(.daily(TimeOfDay(hour: 18, minute: 30)!)) }
    await h.cycle()
    h.forum.addPost(to: "1", author: "alice")
    await h.cycle()
    h.clock.advance(toNext: 18, 29)
    try await h.engine.outbox.releaseHeld()
    await h.dispatcher.drain()
    #expect(h.transport.sent.isEmpty)
    h.clock.advance(toNext: 18, 30)
    try await h.engine.outbox.releaseHeld()
    await h.dispatcher.drain()
    #expect(h.texts().count == 1)
  }

  @Test("quiet hours hold messages and release them as a digest when they end")
  func quietHours() async throws {
    let h = try EngineHarness()
    h.forum.addThread("1", title: "Night thread", posts: 1)
    try await h.engine.subscriptions.subscribe(room: h.room, to: .bookmarks)
    try await h.engine.roomSettings.update(room: h.room) { $0.setQuiet(QuietHours(parsingDaily: "22:00-07:00")) }
    await h.cycle()

    h.clock.advance(toNext: 23, 0)
    let owl = h.forum.addPost(to: "1", author: "owl", text: "hoot")
    h.forum.addPost(to: "1", author: "bat", text: "squeak")
    await h.cycle()
    #expect(h.transport.sent.isEmpty)
    #expect(try await h.engine.statusReports.why(postID: owl.id, room: h.room).entries.map(\.state) == ["held"])
    #expect(try await h.engine.statusReports.status(room: h.room).isQuietNow)

    h.clock.advance(toNext: 6, 59)
    try await h.engine.outbox.releaseHeld()
    await h.dispatcher.drain()
    #expect(h.transport.sent.isEmpty)

    h.clock.advance(toNext: 7, 0)
    await h.cycle()  // the poll releases what is due
    #expect(h.texts().count == 1)
    let digest = try #require(h.texts().first)
    #expect(digest.contains("2 new posts in 1 thread"))
    #expect(digest.contains("Night thread"))
    #expect(digest.contains("owl") && digest.contains("bat"))
    #expect(try await h.engine.statusReports.why(postID: owl.id, room: h.room).entries.map(\.kind) == ["digest"])

    h.forum.addPost(to: "1", author: "lark", text: "morning")
    await h.cycle()
    #expect(h.texts().last?.contains("morning") == true)
  }

  @Test("quiet for a duration, and turning quiet off releases at once")
  func quietForDuration() async throws {
    let h = try EngineHarness()
    h.forum.addThread("1", posts: 1)
    try await h.engine.subscriptions.subscribe(room: h.room, to: .bookmarks)
    await h.cycle()
    let until = h.clock.now().addingTimeInterval(7200)
    try await h.engine.roomSettings.update(room: h.room) { $0.setQuiet(.until(until)) }
    h.forum.addPost(to: "1", author: "alice")
    await h.cycle()
    #expect(h.transport.sent.isEmpty)

    let previous = try await h.engine.roomSettings.update(room: h.room) { $0.setQuiet(nil) }
    #expect(previous.before.quietUntil != nil)
    await h.dispatcher.drain()
    #expect(h.texts().count == 1)
    #expect(h.texts().first?.contains("1 new post") == true)
  }

  @Test("settings round-trip through the store")
  func settingsRoundTrip() async throws {
    let h = try EngineHarness()
    try await h.engine.roomSettings.update(room: h.room) { $0.mode = .digest(.daily(TimeOfDay(hour: 8, minute: 5)!)) }
    try await h.engine.roomSettings.update(room: h.room) { $0.setQuiet(QuietHours(parsingDaily: "23:30-06:15")) }
    try await h.engine.roomSettings.update(room: h.room) { $0.unfurl = false }
    let settings = try await h.engine.roomSettings.settings(room: h.room)
    #expect(settings.mode == .digest(.daily(TimeOfDay(hour: 8, minute: 5)!)))
    #expect(settings.quietHours == QuietHours(parsingDaily: "23:30-06:15"))
    #expect(!settings.unfurl)
    let previous = try await h.engine.roomSettings.update(room: h.room) { $0.mode = .each }
    #expect(previous.before.mode == .digest(.daily(TimeOfDay(hour: 8, minute: 5)!)))
  }
}
