import AwfulBotEngineTestKit
import AwfulBotTestKit
import Foundation
import Testing

@testable import BotCore

/// The README's command table and the bot's own `help` come from different places; this keeps them naming the same
/// commands, so neither can gain or lose one silently.
@Suite("Command documentation")
struct CommandDocumentationTests {
  @Test("README's command table names exactly the commands help lists")
  func readmeMatchesRegistry() throws {
    let documented = try Repository.readmeCommands()
    let registered = Set(CommandRegistry.all.map(\.name))
    #expect(!documented.isEmpty)
    #expect(documented.subtracting(registered).isEmpty, "in the README but not a command")
    #expect(registered.subtracting(documented).isEmpty, "a command the README does not list")
  }

  @Test("help names every command, grouped by role, and the count it states is the count it lists")
  func helpNamesEveryCommand() async throws {
    let bot = try await CommandHarness()
    let answer = try #require(await bot.router.reply(to: bot.message("!help")))
    var listed: [String] = []
    var stated: Int?
    for line in answer.lines {
      switch line {
      case .sentence(let parts):
        if case .text(let text) = parts.first, stated == nil { stated = Int(text.split(separator: " ")[0]) }
      case .field(_, let value):
        if case .text(let names) = value.first { listed += names.components(separatedBy: ", ") }
      default: break
      }
    }
    #expect(Set(listed) == Set(CommandRegistry.all.map(\.name)))
    #expect(listed.count == CommandRegistry.all.count)
    #expect(stated == CommandRegistry.all.count)
    let all = try #require(await bot.router.reply(to: bot.message("!help all")))
    #expect(all.itemCount == CommandRegistry.all.count)
  }
}
