import AwfulBotApp
import AwfulBotAppTestKit
import AwfulBotTestKit
import FakeForum
import Foundation
import Testing

/// `!search` at the console (issue 44): the whole bot with its default limits against the emulator, as a person at
/// the console reads it.
@Suite("console: search")
struct ConsoleSearchTests {
  @Test("results, more, then the one-search-a-minute limit, in the bot's own words")
  func transcript() async throws {
    try await ConsoleChat.with(pollSeconds: 3600) { chat in
      let state = chat.forum.state
      await state.setSearchSettings(floodSeconds: nil, perPage: 20)
      for index in 1...6 {
        _ = try await state.addPost(thread: 3_600_002, author: 1003, body: "une girafe de plus, numéro \(index)")
      }
      await state.clearRequests()

      let first = try await chat.say("!search girafe")
      // The console indents a message's later lines.
      let lines = first.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      #expect(lines.first == "Results 1–5 of 6 for “girafe” in all forums:", "\(first)")
      #expect(lines.count == 7, "\(first)")
      #expect(lines[1].hasPrefix("• 1. Québec politics thread: «débat» 🍁 — by Zoë Québec, "), "\(lines[1])")
      #expect(lines[1].contains("in Debate & Discussion: “une girafe de plus, numéro 6” http"), "\(lines[1])")
      #expect(lines.last == "Say !search more for the next results.")
      let paths = await state.requests().filter { $0.path == "/query.php" }.map(\.method)
      #expect(paths == ["POST", "GET"])

      let more = try await chat.say("!search more")
      #expect(more.hasPrefix("Result 6 of 6 for “girafe”:\n"), "\(more)")
      #expect(more.contains("• 6. Québec politics thread"), "\(more)")
      #expect(more.hasSuffix("That is all of them."))

      let again = try await chat.say("!search okapi")
      #expect(again.hasPrefix("You may search once a minute (the forum limits its searches too); try again in "))
      #expect(await state.requests().filter { $0.path == "/query.php" }.count == 2, "the refused search asked nothing")
    }
  }
}
