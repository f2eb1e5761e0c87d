import AwfulBotEngineTestKit
import AwfulBotTestKit
import ChatBridge
import ForumModel
import Foundation
import Testing

@testable import BotCore

@Suite("Commands: the Leper's Colony")
struct CommandLepersTests {
  /// Gives `count` punishments to `user`, a minute apart, oldest first, with reasons "reason 1", "reason 2", ….
  private func punish(_ bot: CommandHarness, _ user: String, _ count: Int, sentence: Punishment.Sentence = .ban) {
    for index in 1...count {
      bot.clock.advance(by: 60)
      bot.forum.lepers.punish(
        user, sentence: sentence, reason: "reason \(index)", postID: String(800_000 + index), date: bot.clock.now())
    }
  }

  @Test("a rap sheet: newest first with the count, ten an answer, and the command for the rest; the count is exact")
  func rapSheetPages() async throws {
    let bot = try await CommandHarness()
    punish(bot, "Horrible Jerk", 12)
    punish(bot, "Someone Else", 1)
    let answer = try #require(await bot.router.reply(to: bot.message("!lepers horrible jerk", role: .viewer)))
    #expect(answer.itemCount == 10)
    let text = await bot.say("!lepers horrible jerk", role: .viewer)
    let lines = text.components(separatedBy: "\n")
    #expect(
      lines.first
        == "Horrible Jerk's rap sheet: 12 entries, newest first, 1 to 10 shown: "
        + "https://forums.somethingawful.com/banlist.php?userid=501")
    #expect(lines[1].hasPrefix("• BAN, 2025-06-15 "))
    #expect(
      lines[1].hasSuffix(
        ", by Ralp: reason 12 https://forums.somethingawful.com/showthread.php?goto=post&postid=800012#post800012"))
    #expect(lines.last == "2 more entries: !lepers more shows the next.")

    // Another room's more is its own.
    #expect(
      await bot.say("!lepers more", role: .viewer, room: "!other").hasPrefix("There is no rap sheet to page through"))
    let rest = await bot.say("!lepers more", role: .viewer)
    let restLines = rest.components(separatedBy: "\n")
    #expect(restLines.first?.hasPrefix("Horrible Jerk's rap sheet: 12 entries, newest first, 11 to 12 shown:") == true)
    #expect(restLines.count == 3)
    #expect(restLines[2].contains("reason 1 https://"))
    #expect(!rest.contains("more entr"))
    #expect(
      await bot.say("!lepers more", role: .viewer)
        == "That was all of Horrible Jerk's rap sheet (12 entries); there are no more.")
    #expect(await bot.say("!lepers more", role: .viewer).hasPrefix("There is no rap sheet to page through"))
    #expect(await bot.say("!lepers horrible jerk --page 2", role: .viewer) == rest)

    let past = await bot.say("!lepers horrible jerk --page 3", role: .viewer)
    #expect(past == "Horrible Jerk's rap sheet has 12 entries, 2 pages at 10 an answer; there is no page 3.")
  }

  @Test("a sheet over several forum pages: page 1 and the last give the count, then the page the answer needs")
  func severalForumPages() async throws {
    let bot = try await CommandHarness()
    bot.forum.lepers.pageSize = 5
    punish(bot, "Repeat Offender", 12)
    bot.forum.resetRequests()
    let text = await bot.say("!lepers Repeat Offender", role: .viewer)
    #expect(text.hasPrefix("Repeat Offender's rap sheet: 12 entries, newest first, 1 to 10 shown:"))
    #expect(
      bot.forum.requests == [
        "rapSheet Repeat Offender 1", "rapSheet Repeat Offender 3", "rapSheet Repeat Offender 2",
      ])
    #expect(text.components(separatedBy: "\n").filter { $0.hasPrefix("• ") }.count == 10)
  }

  @Test("an unknown user and a clean record each get a sentence; a probation names its length; ids work")
  func unknownAndClean() async throws {
    let bot = try await CommandHarness()
    #expect(
      await bot.say("!lepers Nobody At All", role: .viewer)
        == "The forum knows no user “Nobody At All”, so there is no rap sheet to show.")
    bot.forum.lepers.register("Saint")
    #expect(
      await bot.say("!lepers saint", role: .viewer)
        == "saint has a clean record: the Leper's Colony lists nothing for them.")
    bot.forum.lepers.punish("Kheldragar", sentence: .probation, length: "6 hours", postID: nil)
    let byID = await bot.say("!lepers 502", role: .viewer)
    #expect(byID.contains("• PROBATION (6 hours), "))
    #expect(byID.hasSuffix("https://forums.somethingawful.com/banlist.php?userid=502"))
    #expect(await bot.say("!lepers", role: .viewer).contains("Name the user"))
  }

  @Test("reading a rap sheet is charged to the commands' share of forum requests")
  func charged() async throws {
    let bot = try await CommandHarness(
      budget: .init(userCommandsPerMinute: 0, roomCommandsPerMinute: 0, forumRequestsPerMinute: 1))
    punish(bot, "Horrible Jerk", 1)
    bot.forum.resetRequests()
    #expect(await bot.say("!lepers Horrible Jerk", role: .viewer).hasPrefix("Horrible Jerk's rap sheet: 1 entry"))
    let refused = await bot.say("!lepers Horrible Jerk", role: .viewer)
    #expect(refused.hasPrefix("Chat commands have used their share of forum requests for now"), "\(refused)")
    #expect(bot.forum.requests.count == 1)
  }

  @Test("subscribing needs the room role; the subscription can be undone and ended like the others")
  func subscribeRoles() async throws {
    let bot = try await CommandHarness()
    bot.forum.lepers.punish("Old News")
    let refused = await bot.say("!subscribe lepers", role: .viewer)
    #expect(!refused.hasPrefix("Subscribed"))
    #expect(try await bot.engine.polling.sources().contains(.lepers) == false)
    #expect(await bot.say("!subscribe lepers", role: .member) == "Subscribed this room to the Leper's Colony.")
    #expect(bot.forum.requests.contains("lepers 1"))
    #expect(try await bot.engine.polling.sources().contains(.lepers))
    #expect(
      await bot.say("!subscribe lepers", role: .member) == "This room was already subscribed to the Leper's Colony.")
    #expect(await bot.say("!undo", role: .member).contains("subscribed to the Leper's Colony"))
    #expect(try await bot.engine.polling.sources().contains(.lepers) == false)
    #expect(await bot.say("!subscribe lepers", role: .member) == "Subscribed this room to the Leper's Colony.")
    #expect(await bot.say("!unsubscribe lepers", role: .member) == "Unsubscribed this room from the Leper's Colony.")
    #expect(await bot.say("!help lepers", role: .viewer).contains("lepers <user> [--page N]"))
  }

  @Test("status shows how reading the Colony goes, with its errors, like every other source")
  func status() async throws {
    let bot = try await CommandHarness()
    #expect(await bot.say("!subscribe lepers", role: .member) == "Subscribed this room to the Leper's Colony.")
    #expect(await bot.engine.polling.poll(.lepers).succeeded)
    let healthy = await bot.say("!status", role: .viewer)
    #expect(healthy.contains("Polling the Leper's Colony: ok, last "), "\(healthy)")
    bot.forum.setFault(ForumPageError.databaseUnavailable(title: "Database Unavailable!", message: "try later"))
    #expect(await !bot.engine.polling.poll(.lepers).succeeded)
    let failing = await bot.say("!status", role: .viewer)
    let line = try #require(failing.components(separatedBy: "\n").first { $0.contains("Polling the Leper's Colony") })
    #expect(line.contains("1 error in a row"), "\(line)")
    #expect(line.contains("The forum database is unavailable"), "\(line)")
  }
}
