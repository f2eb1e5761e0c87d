import AwfulBotEngineTestKit
import AwfulBotTestKit
import BotCore
import ChatBridge
import ForumModel
import Foundation
import Testing

/// `!search` against the router, the real engine and `TestForum`'s search: what reaches the forum (its request log),
/// what the room reads, the paging with `more`, the per-user limit and the command budget.
@Suite("!search")
struct SearchCommandTests {
  static let platinumSentence =
    "The feature you are trying to access (Private Messaging, search, etc) is only accessible to Platinum members. "
    + "We're sorry, but you cannot use this feature unless you have a Platinum account."

  /// A harness whose forum holds `count` posts saying "dog breath" in thread 501 (forum 26), newest last.
  static func harness(
    hits count: Int, budget: CommandBudget.Limits = .standard
  ) async throws -> CommandHarness {
    let bot = try await CommandHarness(budget: budget)
    bot.forum.add(TestForum.Thread(id: "501", title: "Dogs", forumID: "26", authorName: "op", forumName: "FYAD"))
    bot.forum.add(TestForum.Thread(id: "601", title: "Cats", forumID: "44", authorName: "op", forumName: "Games"))
    for index in 1...max(count, 1) where count > 0 {
      bot.clock.advance(by: 60)
      bot.forum.addPost(to: "501", author: "poster\(index)", text: "my dog has bad breath number \(index)")
    }
    bot.forum.addPost(to: "601", author: "cat", text: "the cat has dog breath too")
    bot.forum.resetRequests()
    return bot
  }

  static func reply(_ bot: CommandHarness, _ text: String, sender: String = "alice", role: Role = .member) async
    -> CommandReply
  {
    await bot.router.reply(to: bot.message(text, role: role, sender: sender)) ?? CommandReply("<none>")
  }

  @Test("a search lists five results with thread, poster, date, snippet and a link to the post; more lists the rest")
  func searchThenMore() async throws {
    let bot = try await Self.harness(hits: 6)
    let first = await Self.reply(bot, "!search dog breath")
    #expect(bot.forum.requests == ["search dog breath in []"])
    #expect(first.itemCount == 5)
    let text = first.text
    #expect(text.hasPrefix("Results 1–5 of 7 for “dog breath” in all forums:"), "\(text)")
    #expect(text.contains("https://forums.somethingawful.com/showthread.php?goto=post&postid="))
    #expect(text.contains("Dogs — by poster6, "))
    #expect(text.contains("in FYAD: “my dog has bad breath number 6”"))
    #expect(text.hasSuffix("Say !search more for the next results."))
    // The matched words are marked (bold), the rest is text.
    guard case .item(let parts) = first.lines[1] else { Issue.record("no item"); return }
    #expect(parts.contains(.bold("dog")) && parts.contains(.bold("breath")))

    let more = await Self.reply(bot, "!search more")
    #expect(more.itemCount == 2)
    #expect(more.text.hasPrefix("Results 6–7 of 7 for “dog breath”:"), "\(more.text)")
    #expect(more.text.hasSuffix("That is all of them."))
    #expect(bot.forum.requests == ["search dog breath in []"], "the forum's page held them: no request")
    let after = await Self.reply(bot, "!search more")
    #expect(after.text == "That was the last of the 7 results for “dog breath”; there are no more.", "\(after.text)")
    #expect(bot.forum.requests == ["search dog breath in []"])
    let gone = await Self.reply(bot, "!search more")
    #expect(gone.text.hasPrefix("There is no search to page through in this room"))
  }

  @Test("more reads the forum's next page only when the page read is used up: one request each")
  func moreAcrossForumPages() async throws {
    let bot = try await Self.harness(hits: 6)
    bot.forum.searching.setPageSize(3)
    let first = await Self.reply(bot, "!search dog breath")
    #expect(first.itemCount == 3 && first.text.hasPrefix("Results 1–3 of 7 "), "\(first.text)")
    let second = await Self.reply(bot, "!search more")
    #expect(second.itemCount == 3 && second.text.hasPrefix("Results 4–6 of 7 "), "\(second.text)")
    let third = await Self.reply(bot, "!search more")
    #expect(third.itemCount == 1 && third.text.hasPrefix("Result 7 of 7 "), "\(third.text)")
    #expect(third.text.hasSuffix("That is all of them."))
    #expect(bot.forum.requests == ["search dog breath in []", "searchResults q1 2", "searchResults q1 3"])
  }

  @Test("the room's followed forums, one forum, one thread")
  func scopes() async throws {
    let bot = try await Self.harness(hits: 1)
    _ = try await bot.engine.subscriptions.subscribe(room: bot.room, to: .forum(id: "26"))
    _ = try await bot.engine.subscriptions.subscribe(room: bot.room, to: .forum(id: "273"))
    bot.forum.resetRequests()
    let followed = await Self.reply(bot, "!search breath")
    #expect(followed.text.hasPrefix("Result 1 of 1 for “breath” in the forums this room follows (26, 273):"))
    #expect(followed.text.hasSuffix("That is the only result."))
    let forum = await Self.reply(bot, "!search forum 44 dog", sender: "bob")
    #expect(forum.text.hasPrefix("Result 1 of 1 for “dog” in forum 44:"), "\(forum.text)")
    let thread = await Self.reply(bot, "!search thread 501 number", sender: "carol")
    #expect(thread.text.hasPrefix("Result 1 of 1 for “number” in thread 501:"), "\(thread.text)")
    #expect(
      bot.forum.requests == [
        "search breath in [26,273]", "search dog in [44]", "search threadid:501 number in []",
      ])
    // "thread" followed by words, not a thread: searched as words, and finding nothing says how to search a thread.
    let words = await Self.reply(bot, "!search thread safety", sender: "dave")
    #expect(
      words.text
        == "The forum found nothing for “thread safety” in the forums this room follows (26, 273). To search one "
        + "thread: !search thread <thread id or link> <words>.")
    let forumWords = await Self.reply(bot, "!search forum abc desk", sender: "erin")
    #expect(forumWords.text.hasSuffix("(26, 273). To search one forum: !search forum <forum id> <words>."))
  }

  @Test("nothing found is one sentence; an empty search is its usage")
  func nothingFound() async throws {
    let bot = try await Self.harness(hits: 2)
    #expect(await bot.say("!search zebra") == "The forum found nothing for “zebra” in all forums.")
    let usage = await bot.say("!search", sender: "bob")
    #expect(usage.hasPrefix("Say what to search for. Usage: !search <words>"), "\(usage)")
    #expect(bot.forum.requests == ["search zebra in []"])
  }

  @Test("an account without Platinum: one sentence, the forum's own")
  func notPlatinum() async throws {
    let bot = try await Self.harness(hits: 2)
    bot.forum.searching.setRefusal(SearchRefusal(.requiresPlatinum, message: Self.platinumSentence))
    let answer = await bot.say("!search dog")
    #expect(
      answer
        == "The bot's forum account is not a Platinum account, so the forum will not let it search; the forum says: “"
        + Self.platinumSentence + "”")
    #expect(!answer.contains("\n"))
    // The forum did not search: the minute's search is not spent, and once the account can search, it does.
    bot.forum.searching.setRefusal(nil)
    let after = await Self.reply(bot, "!search dog")
    #expect(after.itemCount > 0 && !after.text.hasPrefix("You may search"), "\(after.text)")
  }

  @Test("one search a user a minute: refused without asking the forum; others may; the limit is the config's")
  func perUserLimit() async throws {
    let bot = try await Self.harness(hits: 2)
    _ = await Self.reply(bot, "!search dog")
    let again = await Self.reply(bot, "!search breath")
    #expect(
      again.text == "You may search once a minute (the forum limits its searches too); try again in 60 seconds.")
    #expect(await Self.reply(bot, "!search breath", sender: "bob").itemCount == 3)
    // `more` is not a new search: it goes on with bob's, the room's last, which showed every result.
    #expect(await Self.reply(bot, "!search more").text.hasPrefix("That was the last of the 3 results for “breath”"))
    bot.clock.advance(by: 60)
    #expect(await Self.reply(bot, "!search breath").itemCount == 3)
    #expect(bot.forum.requests.count == 3)

    let unlimited = try await Self.harness(
      hits: 1,
      budget: .init(
        userCommandsPerMinute: 0, roomCommandsPerMinute: 0, forumRequestsPerMinute: 0, userSearchesPerMinute: 0))
    for _ in 0..<3 { #expect(await Self.reply(unlimited, "!search dog").itemCount == 2) }
  }

  @Test("a search takes two of the commands' forum requests, a page of more one")
  func chargedToTheBudget() async throws {
    let bot = try await Self.harness(
      hits: 6,
      budget: .init(
        userCommandsPerMinute: 0, roomCommandsPerMinute: 0, forumRequestsPerMinute: 3, userSearchesPerMinute: 0))
    bot.forum.searching.setPageSize(5)
    #expect(await Self.reply(bot, "!search dog").itemCount == 5)
    #expect(await Self.reply(bot, "!search more").itemCount == 2)
    let over = await Self.reply(bot, "!search breath", sender: "bob")
    #expect(over.text.hasPrefix("Chat commands have used their share of forum requests for now"), "\(over.text)")
    #expect(bot.forum.requests == ["search dog in []", "searchResults q1 2"])
  }

  @Test("hostile words: control characters never reach the forum; a long search is refused, not cut")
  func hostileWords() async throws {
    let bot = try await Self.harness(hits: 1)
    let answer = await bot.say("!search [url=http://x/]@room[/url] \u{03}04dog\u{0F}\u{02}")
    #expect(bot.forum.requests == ["search [url=http://x/]@room[/url] dog in []"])
    // `@room` reaches the room defused (a word joiner after the `@`), as every answer's text does.
    #expect(answer == "The forum found nothing for “[url=http://x/]@\u{2060}room[/url] dog” in all forums.")
    let long = await bot.say("!search " + String(repeating: "a", count: 201), sender: "bob")
    #expect(long == "That search is 201 characters long; the bot sends at most 200, so say it in fewer words.")
    #expect(bot.forum.requests.count == 1)
  }

  @Test("a long snippet ends in an ellipsis; !help lists search")
  func snippetAndHelp() async throws {
    let bot = try await Self.harness(hits: 0)
    bot.forum.addPost(to: "501", author: "wordy", text: "dog " + String(repeating: "blah ", count: 100))
    let answer = await bot.say("!search dog")
    #expect(answer.contains("blah…”"), "\(answer)")
    #expect(await bot.say("!help", sender: "bob").contains(", search,"))
    #expect(await bot.say("!help search", sender: "bob").hasPrefix("!search <words> | thread <thread> <words> |"))
  }
}

extension CommandAnswer {
  /// The answer as a plain-text transport shows it.
  fileprivate var text: String { OutgoingMessage(.answer(self)).text }
}
