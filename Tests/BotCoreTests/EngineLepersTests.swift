import AwfulBotEngineTestKit
import AwfulBotTestKit
import BotStore
import ChatBridge
import ForumModel
import Foundation
import Testing

@testable import BotCore

@Suite("Engine: the Leper's Colony subscription")
struct EngineLepersTests {
  /// The users punished, in the order the room read their entries.
  private func users(_ h: EngineHarness, room: String = "!room") -> [String] {
    h.transport.sent(to: room).compactMap { sent in
      if case .punishment(let relay) = sent.message.content { return relay.user }
      return nil
    }
  }

  /// Gives `count` punishments a minute apart, to users named `prefix1`, `prefix2`, …, oldest first.
  private func punish(_ h: EngineHarness, _ count: Int, prefix: String) {
    for index in 1...count {
      h.clock.advance(by: 60)
      h.forum.lepers.punish("\(prefix)\(index)", postID: String(700_000 + index))
    }
  }

  @Test("subscribing records the page without relaying it; each new entry then reaches every following room once")
  func seedsOnSubscribeThenRelaysOnce() async throws {
    let h = try EngineHarness()
    let other = RoomRef(transport: "test", room: "!other")
    punish(h, 3, prefix: "old")
    #expect(try await !h.engine.polling.sources().contains(.lepers))
    try await h.engine.subscriptions.subscribe(room: h.room, to: .lepers)
    #expect(h.forum.requests == ["lepers 1"])
    // A second room finds the Colony followed already: nothing is read for it.
    try await h.engine.subscriptions.subscribe(room: other, to: .lepers)
    #expect(h.forum.requests == ["lepers 1"])
    #expect(try await h.engine.polling.sources().contains(.lepers))

    let quiet = await h.engine.polling.poll(.lepers)
    #expect(quiet.succeeded)
    #expect(quiet.changed == 0)
    await h.dispatcher.drain()
    #expect(h.transport.sent.isEmpty)

    punish(h, 2, prefix: "new")
    let report = await h.engine.polling.poll(.lepers)
    #expect(report.changed == 2)
    #expect(report.requests == 1)
    await h.engine.polling.poll(.lepers)
    await h.dispatcher.drain()
    #expect(users(h) == ["new1", "new2"])
    #expect(users(h, room: "!other") == ["new1", "new2"])
    let first = try #require(h.transport.sent(to: "!room").first)
    #expect(first.message.text.hasPrefix("PROBATION (6 hours): new1, by Ralp on "))
    #expect(first.message.text.hasSuffix("showthread.php?goto=post&postid=700001#post700001"))
  }

  @Test("nobody follows the Colony: it is not polled; the last room to leave stops it")
  func pollsOnlyWhileFollowed() async throws {
    let h = try EngineHarness()
    #expect(try await h.engine.polling.sources() == [.bookmarks])
    try await h.engine.subscriptions.subscribe(room: h.room, to: .lepers)
    #expect(try await h.engine.polling.sources() == [.bookmarks, .lepers])
    try await h.engine.subscriptions.unsubscribe(room: h.room, from: .lepers)
    #expect(try await h.engine.polling.sources() == [.bookmarks])
  }

  @Test("after downtime the poll reads older pages until it meets entries seen, and relays them oldest first")
  func catchesUpAcrossPages() async throws {
    let h = try EngineHarness()
    h.forum.lepers.pageSize = 5
    punish(h, 4, prefix: "old")
    try await h.engine.subscriptions.subscribe(room: h.room, to: .lepers)
    punish(h, 12, prefix: "missed")
    h.forum.resetRequests()
    let report = await h.engine.polling.poll(.lepers)
    // Pages 1 and 2 are all new; page 3 holds the two newest and the seen ones: the read stops there.
    #expect(h.forum.requests == ["lepers 1", "lepers 2", "lepers 3"])
    #expect(report.changed == 12)
    await h.dispatcher.drain()
    #expect(users(h) == (1...12).map { "missed\($0)" })
  }

  @Test("past the room's replay cap the rest is one line that counts them")
  func replayCapCounts() async throws {
    let h = try EngineHarness()
    try await h.engine.subscriptions.subscribe(room: h.room, to: .lepers)
    _ = try await h.engine.roomSettings.update(room: h.room) { $0.replayCap = 3 }
    punish(h, 8, prefix: "user")
    await h.engine.polling.poll(.lepers)
    await h.dispatcher.drain()
    #expect(users(h) == ["user1", "user2", "user3"])
    let texts = h.texts()
    #expect(texts.count == 4)
    #expect(
      texts.last == "5 more Leper's Colony entries, for user4, user5, user6 and 2 others: "
        + "https://forums.example.com/banlist.php")
  }

  @Test("the page limit bounds a catch-up: the newest pages are relayed, the log says the rest")
  func pageLimit() async throws {
    let h = try EngineHarness { $0.maximumLepersPages = 2 }
    h.forum.lepers.pageSize = 5
    try await h.engine.subscriptions.subscribe(room: h.room, to: .lepers)
    punish(h, 20, prefix: "u")
    h.forum.resetRequests()
    let report = await h.engine.polling.poll(.lepers)
    #expect(h.forum.requests == ["lepers 1", "lepers 2"])
    #expect(report.changed == 10)
    await h.dispatcher.drain()
    #expect(users(h) == (11...20).map { "u\($0)" })
  }

  @Test("exactly once across a restart: rows queued before the stop go out once, nothing is queued again")
  func exactlyOnceAcrossRestart() async throws {
    let path = try EngineHarness.temporaryDatabasePath()
    defer { EngineHarness.removeTemporaryDirectory(of: path) }
    let clock = TestClock()
    let forum = TestForum(clock: clock)
    do {
      let h = try EngineHarness(database: try BotDatabase(path: path), clock: clock, forum: forum)
      try await h.engine.subscriptions.subscribe(room: h.room, to: .lepers)
      punish(h, 3, prefix: "before")
      await h.engine.polling.poll(.lepers)
      // Stopped before the dispatcher sent anything.
      try h.database.close()
    }
    let h = try EngineHarness(database: try BotDatabase(path: path), clock: clock, forum: forum)
    let again = await h.engine.polling.poll(.lepers)
    #expect(again.changed == 0)
    punish(h, 1, prefix: "after")
    await h.engine.polling.poll(.lepers)
    await h.dispatcher.drain()
    #expect(users(h) == ["before1", "before2", "before3", "after1"])
    #expect(Set(h.transport.sent.map(\.key)).count == 4)
  }

  @Test("a subscription that cannot read the Colony still stands; the first poll records the page unrelayed")
  func seedsAtFirstPollWhenSubscribeCannotRead() async throws {
    let h = try EngineHarness()
    punish(h, 2, prefix: "old")
    h.forum.setFault(URLError(.timedOut))
    let result = try await h.engine.subscriptions.subscribe(room: h.room, to: .lepers)
    #expect(result.isNew)
    h.forum.setFault(nil)
    await h.engine.polling.poll(.lepers)
    await h.dispatcher.drain()
    #expect(h.transport.sent.isEmpty)
    punish(h, 1, prefix: "new")
    await h.engine.polling.poll(.lepers)
    await h.dispatcher.drain()
    #expect(users(h) == ["new1"])
  }

  @Test("following again after nobody did relays nothing given in between")
  func resubscribingSeedsAgain() async throws {
    let h = try EngineHarness()
    try await h.engine.subscriptions.subscribe(room: h.room, to: .lepers)
    await h.engine.polling.poll(.lepers)
    try await h.engine.subscriptions.unsubscribe(room: h.room, from: .lepers)
    punish(h, 3, prefix: "meanwhile")
    try await h.engine.subscriptions.subscribe(room: h.room, to: .lepers)
    await h.engine.polling.poll(.lepers)
    punish(h, 1, prefix: "later")
    await h.engine.polling.poll(.lepers)
    await h.dispatcher.drain()
    #expect(users(h) == ["later1"])
  }

  @Test("an error reading the Colony is an error in its health, never 'nothing new'")
  func errorsAreErrors() async throws {
    let h = try EngineHarness()
    try await h.engine.subscriptions.subscribe(room: h.room, to: .lepers)
    punish(h, 1, prefix: "hidden")
    h.forum.setFault(ForumPageError.databaseUnavailable(title: "Database Unavailable!", message: "try later"))
    let failed = await h.engine.polling.poll(.lepers)
    #expect(!failed.succeeded)
    let health = try await h.engine.statusReports.health()
    let lepers = try #require(health.sources.first { $0.source == "lepers" })
    #expect(lepers.consecutiveErrors == 1)
    #expect(PollSource(name: lepers.source)?.readableName == "the Leper's Colony")
    h.forum.setFault(nil)
    await h.engine.polling.poll(.lepers)
    await h.dispatcher.drain()
    #expect(users(h) == ["hidden1"])
  }

  @Test("a quiet room holds entries and gets them when its quiet ends")
  func quietHoldsEntries() async throws {
    let h = try EngineHarness()
    try await h.engine.subscriptions.subscribe(room: h.room, to: .lepers)
    _ = try await h.engine.roomSettings.update(room: h.room) { $0.isPaused = true }
    punish(h, 2, prefix: "held")
    let report = await h.engine.polling.poll(.lepers)
    #expect(report.queued == 2)
    await h.dispatcher.drain()
    #expect(h.transport.sent.isEmpty)
    _ = try await h.engine.roomSettings.update(room: h.room) { $0.isPaused = false }
    try await h.engine.outbox.releaseHeld()
    await h.dispatcher.drain()
    #expect(users(h) == ["held1", "held2"])
  }

  @Test("a room in digest mode gets the Colony's entries in its digest, beside the posts, once")
  func digestHoldsEntries() async throws {
    let h = try EngineHarness()
    h.forum.addThread("1", title: "Thread one", posts: 1)
    try await h.engine.subscriptions.subscribe(room: h.room, to: .bookmarks)
    try await h.engine.subscriptions.subscribe(room: h.room, to: .lepers)
    _ = try await h.engine.roomSettings.update(room: h.room) {
      $0.mode = .digest(.hourly)
      $0.replayCap = 1
    }
    await h.cycle()
    h.forum.addPost(to: "1", author: "alice")
    punish(h, 3, prefix: "held")
    await h.cycle()
    let report = await h.engine.polling.poll(.lepers)
    #expect(report.queued == 3)
    // Read again before the digest: nothing is held twice.
    await h.engine.polling.poll(.lepers)
    await h.dispatcher.drain()
    #expect(h.transport.sent.isEmpty)
    #expect(try await h.engine.statusReports.status(room: h.room).held == 4)

    h.clock.advance(toNext: 11, 0)
    try await h.engine.outbox.releaseHeld()
    await h.dispatcher.drain()
    #expect(
      h.texts() == [
        """
        Digest: 1 new post in 1 thread and 3 new Leper's Colony entries
        • Thread one: 1 new post by alice https://forums.example.com/showthread.php?threadid=1&perpage=40&pagenumber=1#post1002
        • The Leper's Colony: 3 new entries, for held1, held2 and held3 https://forums.example.com/banlist.php
        """
      ])
    #expect(try await h.engine.statusReports.status(room: h.room).held == 0)

    // Only Colony entries: the digest says just those.
    punish(h, 1, prefix: "later")
    await h.engine.polling.poll(.lepers)
    h.clock.advance(toNext: 12, 0)
    try await h.engine.outbox.releaseHeld()
    await h.dispatcher.drain()
    #expect(h.texts().count == 2)
    #expect(
      h.texts().last?.hasPrefix("Digest: 1 new Leper's Colony entry\n• The Leper's Colony: 1 new entry, for later1 ")
        == true)
  }

  @Test("entries no read can reach again are forgotten; the newest are always kept and nothing is told twice")
  func forgetsUnreachableEntries() async throws {
    let h = try EngineHarness {
      $0.lepersEntriesKept = 5
      $0.maximumLepersPages = 3
    }
    h.forum.lepers.pageSize = 5
    punish(h, 4, prefix: "old")
    try await h.engine.subscriptions.subscribe(room: h.room, to: .lepers)
    h.clock.advance(by: 3 * 86_400)
    punish(h, 12, prefix: "new")
    await h.engine.polling.poll(.lepers)
    // That read reached the old entries (page 3): all 16 are kept.
    #expect(try await h.database.read { try $0.allSeenPunishments() }.count == 16)

    await h.engine.polling.poll(.lepers)
    // Page 1 alone was read: the old entries, three days older than it, are gone; every new one stays (the newest
    // five by rule, the rest because they are within a day of what the read saw).
    let kept = try await h.database.read { try $0.allSeenPunishments() }
    #expect(kept.count == 12)
    await h.engine.polling.poll(.lepers)
    await h.dispatcher.drain()
    #expect(users(h) == (1...12).map { "new\($0)" })

    // Days later the bot was away long enough for the page limit to cut its read short: what it read is all new
    // and days newer than what it knew. Even so the newest five stay: the three just read and new12 and new11.
    h.clock.advance(by: 3 * 86_400)
    h.forum.lepers.pageSize = 1
    punish(h, 4, prefix: "late")
    await h.engine.polling.poll(.lepers)
    let afterGap = try await h.database.read { try $0.allSeenPunishments() }
    #expect(afterGap.count == 5)
    let newestFirst = h.forum.lepers.all.map(PunishmentIdentity.of)
    // late4, late3, late2, then (late1 unread) new12 and new11.
    #expect(Set(afterGap.map(\.identity)) == Set(newestFirst[0..<3] + newestFirst[4..<6]))
    await h.engine.polling.poll(.lepers)
    await h.dispatcher.drain()
    #expect(users(h) == (1...12).map { "new\($0)" } + ["late2", "late3", "late4"])
  }

  @Test("entries alike in all but their reason (one user, one moderator, one minute, no post) are each told once")
  func entriesAlikeInOneMinute() async throws {
    let h = try EngineHarness()
    try await h.engine.subscriptions.subscribe(room: h.room, to: .lepers)
    h.clock.advance(by: 60)
    let minute = h.clock.now()
    for number in 1...3 {
      h.forum.lepers.punish("twin", reason: "reason \(number)", postID: nil, date: minute)
    }
    await h.engine.polling.poll(.lepers)
    await h.dispatcher.drain()
    #expect(h.texts().count == 3)
    #expect(h.texts().map { $0.contains("reason 1") } == [true, false, false], "oldest first")

    // One more alike, given later in the same minute (on top of the page): that one alone is new.
    h.forum.lepers.punish("twin", reason: "reason 4", postID: nil, date: minute)
    await h.engine.polling.poll(.lepers)
    await h.engine.polling.poll(.lepers)
    await h.dispatcher.drain()
    #expect(h.texts().count == 4)
    #expect(h.texts().last?.contains("reason 4") == true)
  }

  @Test("an entry's identity holds across reads and tells apart what differs")
  func identity() {
    let date = Date(timeIntervalSince1970: 1_384_099_800)
    func entry(sentence: Punishment.Sentence = .probation, reason: String = "r", post: String? = "1") -> Punishment {
      Punishment(
        sentence: sentence, date: date, postID: post, subject: ForumUserReference(name: "A", id: "2"),
        reasonHTML: reason, reason: [.text(reason)], requester: ForumUserReference(name: "M", id: "3"),
        approver: nil)
    }
    #expect(PunishmentIdentity.of(entry()) == PunishmentIdentity.of(entry(reason: "edited by the mod")))
    #expect(PunishmentIdentity.of(entry()) != PunishmentIdentity.of(entry(sentence: .ban)))
    #expect(PunishmentIdentity.of(entry()) != PunishmentIdentity.of(entry(post: nil)))
    #expect(PunishmentIdentity.of(entry()).count == 32)
  }
}
