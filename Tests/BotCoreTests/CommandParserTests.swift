import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

@testable import BotCore

@Suite("Command parser")
struct CommandParserTests {
  let parser = CommandParser(prefix: "!", botNames: ["AwfulBot"])

  func parsed(_ line: String, isDirect: Bool = false) throws -> CommandInput {
    let result = try #require(parser.parse(line, isDirect: isDirect))
    return try result.get()
  }

  @Test("prefix form splits name and arguments")
  func prefixForm() throws {
    let input = try parsed("!Bookmark 123 red")
    #expect(input.name == "bookmark")
    #expect(input.values == ["123", "red"])
  }

  @Test("botname: and botname, forms", arguments: ["AwfulBot: watch 5", "awfulbot, watch 5", "awfulbot:watch 5"])
  func botNameForms(_ line: String) throws {
    let input = try parsed(line)
    #expect(input.name == "watch")
    #expect(input.values == ["5"])
  }

  @Test(
    "lines not addressed to the bot are ignored",
    arguments: ["hello", "!", "! help", "!!!", "awfulbotty: help", "awfulbot"])
  func notCommands(_ line: String) {
    #expect(parser.parse(line) == nil)
  }

  @Test("a direct conversation needs no prefix")
  func directMessages() throws {
    #expect(try parsed("help watch", isDirect: true).values == ["watch"])
  }

  /// IRC hands on "awfulbot_: status" (the nick the bot got after a clash) as "status", addressed; the router
  /// parses it as direct. The transport's side is IRCTransportTests' `IRCRolesAndAddressTests`.
  @Test("text a transport marks addressed to the bot is a command without the prefix; chat without it is not")
  func addressedText() throws {
    let parser = CommandParser(prefix: "!", botNames: [])
    #expect(try #require(parser.parse("status", isDirect: true)).get().name == "status")
    #expect(parser.parse("status is fine", isDirect: false) == nil)
    #expect(parser.parse("awfulbot: status", isDirect: false) == nil)
  }

  @Test("quoted arguments keep their spaces; straight and curly quotes; escaped quote")
  func quoting() throws {
    #expect(try parsed(#"!forums "general bullshit""#).values == ["general bullshit"])
    #expect(try parsed("!alert “Some Goon” now").values == ["Some Goon", "now"])
    #expect(try parsed(#"!watch 1 --keyword "say \"hi\"""#).values == ["1", "--keyword", #"say "hi""#])
    #expect(try parsed(#"!threads """#).values == [""])
  }

  @Test("an unterminated quote is a syntax error kept on the input, raw text preserved")
  func unterminatedQuote() throws {
    let input = try parsed(#"!reply 123 he said "hi"#)
    #expect(input.syntaxError == .unterminatedQuote)
    #expect(input.rawArguments == #"123 he said "hi"#)
    #expect(input.arguments.isEmpty)
  }

  @Test("rest(from:) gives the raw remainder")
  func rawRest() throws {
    let input = try parsed("!reply 42   Hello,   world  ")
    #expect(input.rest(from: 1) == "Hello,   world")
    #expect(input.rest(from: 5) == "")
  }

  @Test("a custom prefix")
  func customPrefix() throws {
    let custom = CommandParser(prefix: "..", botNames: [])
    let result = try #require(custom.parse("..status"))
    #expect(try result.get().name == "status")
    #expect(custom.parse("!status") == nil)
  }

  @Test("flags and options")
  func flags() throws {
    let scanner = try ArgumentScanner(
      ["123", "--op-only", "--author", "Bob", "--keyword=cats", "--author", "Eve"], flags: ["op-only"],
      valueOptions: ["author", "keyword"])
    #expect(scanner.positional == ["123"])
    #expect(scanner.flags == ["op-only"])
    #expect(scanner.options["author"] == ["Bob", "Eve"])
    #expect(scanner.options["keyword"] == ["cats"])
    #expect(throws: CommandError.self) { try ArgumentScanner(["--bogus"], flags: [], valueOptions: []) }
    #expect(throws: CommandError.self) { try ArgumentScanner(["--author"], flags: [], valueOptions: ["author"]) }
  }

  @Test("durations")
  func durations() {
    #expect(DurationText.parse("90m") == 5400)
    #expect(DurationText.parse("1h30m") == 5400)
    #expect(DurationText.parse("2 hours") == 7200)
    #expect(DurationText.parse("1d") == 86_400)
    #expect(DurationText.parse("soon") == nil)
    #expect(DurationText.parse("5") == nil)
    #expect(DurationText.parse("0m") == nil)
  }

  @Test("closest command suggestions")
  func suggestions() {
    let names = CommandRegistry.all.map(\.name)
    #expect(CommandSuggester.closest(to: "bookmakrs", among: names) == "bookmarks")
    #expect(CommandSuggester.closest(to: "subscirbe", among: names) == "subscribe")
    #expect(CommandSuggester.closest(to: "xyzzyplugh", among: names) == nil)
  }
}
