import AwfulBotEngineTestKit
import AwfulBotTestKit
import BotCore
import BotStore
import ChatBridge
import ForumModel
import Foundation
import Testing

/// Every forum request a command causes is charged to the commands' share (`CommandBudget`), also those the engine's
/// parts make for it (`subscribe`, its backfill, `watch`, 👀, `unwatch`, `undo`), and a room follows only so many
/// forums and threads. Against the router and the real engine: `TestForum` logs every request, so each case counts
/// what reached the forum. The flood against the emulator and a real IRC server is in `HostileForumBudgetTests`.
@Suite("Forum requests of commands")
struct CommandForumBudgetTests {
  static let outOfShare = "Chat commands have used their share of forum requests for now"

  /// A member in the harness's named room: held to the budget (the account's admins are not).
  static func member(_ bot: CommandHarness, _ text: String, room: String = "!room") async -> String {
    await bot.say(text, role: .member, sender: "bob", room: room)
  }

  @Test("!subscribe bookmarks --backfill 20, said again and again: thread pages are read the first time only")
  func backfillOnlyWhenNew() async throws {
    let bot = try await CommandHarness()
    for index in 1...6 { bot.forum.addThread("50\(index)", forumID: "26", posts: 2) }
    _ = await bot.engine.polling.poll(.bookmarks)
    bot.forum.resetRequests()

    let first = await Self.member(bot, "!subscribe bookmarks --backfill 20")
    #expect(first.hasPrefix("Subscribed this room to all bookmarks.\nSending the latest"), "\(first)")
    let firstRequests = bot.forum.requests
    // Seven bookmarked threads (six of two posts, thread 100's last page of five): all read for 20 posts.
    #expect(firstRequests.count == 7 && firstRequests.allSatisfy { $0.hasPrefix("threadPage ") }, "\(firstRequests)")

    for _ in 0..<10 {
      let again = await Self.member(bot, "!subscribe bookmarks --backfill 20")
      #expect(
        again
          == "This room was already subscribed to all bookmarks. --backfill sends posts only with a new subscription, "
          + "so nothing was sent again.")
    }
    #expect(bot.forum.requests == firstRequests, "nothing more reached the forum")
    let queued = try await bot.engine.database.read { tx in try tx.allOutboxRows() }
    #expect(queued.count == 17, "one backfill queued, not eleven")

    // Watching again with --backfill changes the filters only: no page is read for it.
    #expect(await Self.member(bot, "!watch 501 --backfill 5").hasPrefix("Watching "))
    let afterWatch = bot.forum.requests
    let rewatch = await Self.member(bot, "!watch 501 --backfill 5 --op-only")
    #expect(rewatch.hasPrefix("Updated the filters of "), "\(rewatch)")
    #expect(rewatch.hasSuffix("--backfill sends posts only when a room starts watching, so nothing was sent again."))
    #expect(bot.forum.requests == afterWatch)
  }

  @Test("a bookmarks backfill the share cuts short sends what it read, and says how much")
  func backfillCutShort() async throws {
    let bot = try await CommandHarness(
      budget: .init(userCommandsPerMinute: 0, roomCommandsPerMinute: 0, forumRequestsPerMinute: 3))
    for index in 1...6 { bot.forum.addThread("50\(index)", forumID: "26", posts: 2) }
    _ = await bot.engine.polling.poll(.bookmarks)
    bot.forum.resetRequests()
    let answer = await Self.member(bot, "!subscribe bookmarks --backfill 20")
    #expect(answer == "Subscribed this room to all bookmarks.\nSending the latest 6 now.", "\(answer)")
    #expect(bot.forum.requests.count == 3, "three pages, the share: \(bot.forum.requests)")
  }

  @Test("past the share, the next forum-touching command is refused and nothing reaches the forum")
  func shareCoversTheEngineParts() async throws {
    let bot = try await CommandHarness(
      budget: .init(userCommandsPerMinute: 0, roomCommandsPerMinute: 0, forumRequestsPerMinute: 3))
    // Bookmarked on the forum, not read by the bot yet: watching one reads its last page.
    for id in ["101", "102", "103", "104"] { bot.forum.addThread(id, forumID: "26", posts: 3) }
    // A relay of thread 105, which the bot has not read yet, for 👀.
    bot.forum.addThread("105", forumID: "26", posts: 1, bookmarked: false)
    try await relayed(bot, threadID: "105", receipt: "$relay")
    bot.forum.resetRequests()

    // Each watch of a thread the bot has not read yet costs one page: three fit in the share.
    for id in ["101", "102", "103"] {
      let watched = await Self.member(bot, "!watch \(id)")
      #expect(watched.hasPrefix("Watching “Thread \(id)”"), "\(watched)")
    }
    #expect(bot.forum.requests == ["threadPage 101", "threadPage 102", "threadPage 103"])

    // The fourth, and every other way a command reaches the forum, is refused before it does.
    let fourth = await Self.member(bot, "!watch 104")
    #expect(fourth.hasPrefix(Self.outOfShare), "\(fourth)")
    let eyes = await bot.router.handle(
      IncomingReaction(
        transport: CommandHarness.transport, room: "!room", senderID: "@bob:example.org", senderName: "bob",
        target: "$relay", key: "👀", reactionID: "$eyes", transportRole: .member),
      capabilities: .plainText)
    #expect(eyes.answer?.text.contains(Self.outOfShare) == true, "\(String(describing: eyes.answer?.text))")
    #expect(await Self.member(bot, "!subscribe forum 273").hasPrefix(Self.outOfShare))
    let backfilled = await Self.member(bot, "!subscribe bookmarks --backfill 5", room: "!other")
    #expect(
      backfilled.hasPrefix("Subscribed this room to all bookmarks.\nNothing from before was sent: \(Self.outOfShare)"),
      "the subscription stands, its backfill says why it sent nothing: \(backfilled)")
    #expect(await Self.member(bot, "!undo", room: "!other").hasPrefix("Undone"), "undo of a subscription: no request")
    let unfurl = await bot.send(
      "see https://forums.somethingawful.com/showthread.php?threadid=200", role: .member, sender: "bob")
    #expect(unfurl == nil, "a link preview past the share is skipped in silence")
    #expect(bot.forum.requests.count == 3, "nothing reached the forum: \(bot.forum.requests)")
    #expect(try await bot.engine.subscriptions.subscriptions(room: bot.room).count == 3)

    // A minute later the share is back.
    bot.clock.advance(by: 60)
    #expect(await Self.member(bot, "!watch 104").hasPrefix("Watching “Thread 104”"))
  }

  @Test("a room follows at most so many forums and watches so many threads; following one again is no new one")
  func capsPerRoom() async throws {
    let bot = try await CommandHarness(budget: .off) {
      $0.maximumForumsPerRoom = 2
      $0.maximumWatchedThreadsPerRoom = 2
    }
    #expect(await Self.member(bot, "!subscribe forum 26").hasPrefix("Subscribed this room to new threads in FYAD"))
    #expect(await Self.member(bot, "!subscribe forum 273").hasPrefix("Subscribed this room to new threads in"))
    bot.forum.resetRequests()
    #expect(
      await Self.member(bot, "!subscribe forum 274")
        == "This room already follows 2 forums, the most it may; unsubscribe one first.")
    #expect(!bot.forum.requests.contains("threads 274"), "refused before the forum was read: \(bot.forum.requests)")
    #expect(await Self.member(bot, "!subscribe forum 26").hasPrefix("This room was already subscribed"))
    #expect(await Self.member(bot, "!subscribe forum 274", room: "!other").hasPrefix("Subscribed this room"))

    #expect(await Self.member(bot, "!watch 100").hasPrefix("Watching "))
    #expect(await Self.member(bot, "!watch 200").hasPrefix("Watching "))
    bot.forum.resetRequests()
    #expect(
      await Self.member(bot, "!watch 300")
        == "This room already watches 2 threads, the most it may; unwatch one first.")
    #expect(bot.forum.requests.isEmpty, "no page read, no bookmark added: \(bot.forum.requests)")
    #expect(await Self.member(bot, "!watch 100 --op-only").hasPrefix("Updated the filters of "))
    #expect(await Self.member(bot, "!unwatch 200").hasPrefix("Stopped watching thread 200"))
    #expect(await Self.member(bot, "!watch 300").hasPrefix("Watching "))

    // What the operator's config seeds is not held to the caps.
    let seeded = try await bot.engine.subscriptions.subscribe(room: bot.room, to: .forum(id: "274"))
    #expect(seeded.isNew)
    // A cap lowered below what a room holds says so.
    let lowered = try await CommandHarness(budget: .off) { $0.maximumForumsPerRoom = 1 }
    for id in ["26", "273"] {
      _ = try await lowered.engine.subscriptions.subscribe(room: lowered.room, to: .forum(id: id))
    }
    #expect(
      await Self.member(lowered, "!subscribe forum 274")
        == "This room already follows 2 forums, more than the 1 it may; unsubscribe one first.")
  }

  /// A delivered relay of the last post of `threadID` in the harness room, as the relay would have written it.
  func relayed(_ bot: CommandHarness, threadID: String, receipt: String) async throws {
    let room = bot.room
    let now = bot.clock.now()
    let postID = try #require(bot.forum.thread(threadID)?.posts.last?.id)
    try await bot.engine.database.write { tx in
      var row = OutboxRecord(
        transport: room.transport, room: room.room, kind: .post, payload: "{}", idempotencyKey: "relay-\(receipt)",
        createdAt: now, state: .delivered, deliveredAt: now, receipt: receipt, threadID: threadID, postID: postID,
        reference: nil)
      try tx.enqueue(&row)
    }
  }
}
