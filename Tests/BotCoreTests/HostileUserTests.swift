import AwfulBotEngineTestKit
import AwfulBotTestKit
import BotCore
import BotStore
import ChatBridge
import ForumModel
import Foundation
import Testing

/// The people the operator never named, against the router and the real engine: a stranger who owns a room the bot
/// joined on their invite, a message sent in clear in an encrypted room, a viewer flooding commands. Each case shows
/// the refusal they read and that nothing reached the forum (`TestForum` records every action). The same rules
/// against the real servers are in the acceptance suites (`HostileMatrixTests`, `HostileIRCTests`).
@Suite("Hostile users")
struct HostileUserTests {
  /// A room nobody named in the config: its creator holds power 100 there.
  static let strangersRoom = "!theirs"

  @Test("a stranger's own room: room power gives room settings, never the forum account")
  func strangersRoom() async throws {
    let bot = try await CommandHarness()
    let room = Self.strangersRoom
    let say = { (text: String) in await bot.say(text, role: .admin, sender: "eve", room: room) }
    // Room scope works: it changes only their room.
    let mode = await say("!mode summary 3")
    #expect(mode.hasPrefix("Mode set: summary"), "room settings are theirs: \(mode)")
    // Account scope does not.
    let bookmark = await say("!bookmark 200")
    #expect(
      bookmark
        == "“bookmark” acts on the bot's forum account, so it needs the member role from the bot's operator (roles "
        + "in its config, or room power in a room its config names); your power in this room does not count, as the "
        + "config does not name it.")
    #expect(await say("!unbookmark 100").contains("your power in this room does not count"))
    #expect(await say("!reply 200 hello").contains("acts on the bot's forum account"))
    #expect(await say("!replies viewer").contains("acts on the bot's forum account"))
    #expect(await say("!pms").contains("acts on the bot's forum account"))
    // Watching a thread the account has not bookmarked would bookmark it: refused, and nothing watched.
    let watch = await say("!watch 200")
    #expect(watch.hasPrefix("Thread 200 is not bookmarked on the bot's forum account"), "\(watch)")
    // A thread the account follows already can be watched: that acts on their room only.
    #expect(await say("!watch 100").hasPrefix("Watching “The Bookmarked Thread”"))
    #expect(bot.forum.thread("200")?.isBookmarked == false)
    #expect(bot.forum.thread("100")?.isBookmarked == true)
    #expect(bot.forum.replies.isEmpty, "nothing was posted")
  }

  @Test("private-message commands only in privateMessages.rooms, never in a chat that calls itself direct")
  func privateMessagesOnlyInConfiguredRooms() async throws {
    let bot = try await CommandHarness(grants: [CommandHarness.transport: ["@ann:example.org": .admin]])
    var direct = bot.message("!pms", role: .admin, sender: "ann", room: "!dm")
    direct.isDirect = true
    let refused = await bot.router.handle(direct, capabilities: .plainText)?.text
    #expect(
      refused
        == "!pms works only in a room the bot's config names for private messages (privateMessages.rooms), and this "
        + "one is not among them.")
    bot.engine.privateMessageRooms.add(RoomRef(transport: CommandHarness.transport, room: "!pm-room"))
    // Past the room check: the test forum has no inbox, and says so.
    #expect(
      await bot.say("!pms", role: nil, sender: "ann", room: "!pm-room")
        == "This forum connection offers no private messages.")
  }

  @Test("an unencrypted command in an encrypted room does not act; the sender is told once how to do it")
  func unencryptedCommands() async throws {
    let bot = try await CommandHarness()
    func clear(_ text: String) async -> String? {
      var message = bot.message(text, role: .admin)
      message.trust = .unencryptedInEncryptedRoom
      return await bot.router.handle(message, capabilities: .plainText)?.text
    }
    let first = await clear("!reply 200 launch")
    #expect(
      first
        == "“!reply” came unencrypted in this encrypted room, so nothing shows it is yours: I act here only on what a "
        + "verified session sends encrypted. Send it again from a session you have verified, with encryption on (in "
        + "Element: Settings → Sessions). I will not repeat this here.")
    #expect(await clear("!confirm") == nil, "told once: nothing is said twice")
    #expect(await clear("!bookmark 200") == nil)
    #expect(await clear("!mode digest") == nil, "room settings need the trust check too")
    #expect(await clear("!status")?.isEmpty == false, "reading commands still answer")
    #expect(bot.forum.replies.isEmpty)
    #expect(bot.forum.thread("200")?.isBookmarked == false)
    // The same admin from a trusted session acts.
    #expect(await bot.say("!bookmark 200").hasPrefix("Bookmarked"))
  }

  @Test("a role taken away between the preview and the confirm stops the post")
  func confirmChecksTheRoleAgain() async throws {
    let grants = [CommandHarness.transport: ["@ann:example.org": Role.admin]]
    let bot = try await CommandHarness(grants: grants)
    #expect(await bot.say("!reply 200 hello", role: nil, sender: "ann").hasPrefix("Reply to “Another Thread”"))
    bot.router.sharedPermissions.replaceGrants(with: PermissionPolicy())
    let confirm = await bot.say("!confirm", role: nil, sender: "ann")
    #expect(confirm.hasSuffix("so the reply was dropped; nothing was posted."), "\(confirm)")
    #expect(bot.forum.replies.isEmpty)
    #expect(await bot.say("!confirm", role: nil, sender: "ann").hasPrefix("Nothing to confirm"), "dropped, not kept")
  }

  @Test("500 commands from one viewer: at most a minute's budget answered, one refusal, the rest ignored")
  func commandFlood() async throws {
    let bot = try await CommandHarness()
    var answers: [String] = []
    for _ in 0..<500 {
      if let answer = await bot.send("!help", role: .viewer, sender: "flooder") { answers.append(answer) }
    }
    let limits = CommandBudget.Limits.standard
    let refusals = answers.filter { $0.hasPrefix("You are giving commands faster than I take them") }
    #expect(answers.count == limits.userCommandsPerMinute + 1, "the budget, then one refusal")
    #expect(refusals.count == 1)
    // Another user in the same room is not held back by the flooder's own budget.
    #expect(await bot.send("!help", role: .viewer, sender: "bystander")?.contains("command") == true)
    // A minute later the flooder is heard again.
    bot.clock.advance(by: 60)
    #expect(await bot.send("!help", role: .viewer, sender: "flooder")?.contains("command") == true)
    // The operator's admins are not held back.
    for _ in 0..<100 { _ = await bot.send("!help", role: .admin, sender: "alice") }
    #expect(await bot.send("!status", role: .admin, sender: "alice")?.isEmpty == false)
    // Unless what comes in their name passed no trust check (a stolen token writing in clear).
    var inClear = 0
    for _ in 0..<50 {
      var message = bot.message("!help", role: .admin, sender: "mallory")
      message.trust = .unencryptedInEncryptedRoom
      if await bot.router.handle(message, capabilities: .plainText) != nil { inClear += 1 }
    }
    #expect(inClear == CommandBudget.Limits.standard.userCommandsPerMinute + 1)
  }

  @Test("commands share a budget of forum requests, so chat cannot take polling's pace")
  func forumRequestBudget() async throws {
    let bot = try await CommandHarness()
    let share = CommandBudget.Limits.standard.forumRequestsPerMinute
    var refused = 0
    // Different viewers, so no one's own command budget ends it first.
    for index in 0..<(share + 5) {
      let answer = await bot.say("!latest 26", role: .viewer, sender: "viewer\(index)")
      if answer.hasPrefix("Chat commands have used their share of forum requests") { refused += 1 }
    }
    #expect(refused == 5, "the share, then a sentence saying when to try again")
  }
}

@Suite("Command budget")
struct CommandBudgetTests {
  @Test("a bucket per user and per room, refilled evenly; a refusal said once until let through again")
  func buckets() async {
    let budget = CommandBudget(
      limits: .init(userCommandsPerMinute: 2, roomCommandsPerMinute: 3, forumRequestsPerMinute: 1))
    let start = Date(timeIntervalSince1970: 0)
    #expect(await budget.admit(user: "a", room: "r", now: start) == .allowed)
    #expect(await budget.admit(user: "a", room: "r", now: start) == .allowed)
    guard case .refused(let sentence) = await budget.admit(user: "a", room: "r", now: start) else {
      Issue.record("the third command in a minute is refused")
      return
    }
    #expect(sentence.contains("2 a minute") && sentence.contains("in 30 seconds"), "\(sentence)")
    #expect(await budget.admit(user: "a", room: "r", now: start) == .ignored)
    // The room's own budget: b takes the third slot, c finds the room full.
    #expect(await budget.admit(user: "b", room: "r", now: start) == .allowed)
    guard case .refused(let room) = await budget.admit(user: "c", room: "r", now: start) else {
      Issue.record("the room's fourth command in a minute is refused")
      return
    }
    #expect(room.hasPrefix("This room is giving commands faster"))
    // Half a minute refills one of a's two; still flooding, a is not told a second time.
    #expect(await budget.admit(user: "a", room: "other", now: start.addingTimeInterval(30)) == .allowed)
    #expect(await budget.admit(user: "a", room: "other", now: start.addingTimeInterval(30)) == .ignored)
    // Calmed down (a minute's budget back): a new flood earns a new refusal.
    #expect(await budget.admit(user: "a", room: "other", now: start.addingTimeInterval(120)) == .allowed)
    #expect(await budget.admit(user: "a", room: "other", now: start.addingTimeInterval(120)) == .allowed)
    guard case .refused = await budget.admit(user: "a", room: "other", now: start.addingTimeInterval(120)) else {
      Issue.record("a new flood is told again")
      return
    }
    #expect(await budget.takeForumRequest(now: start) == nil)
    #expect(await budget.takeForumRequest(now: start) == 60)
  }
}
