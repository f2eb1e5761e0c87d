import AwfulBotTestKit
import ChatBridge
import Testing

@testable import IRCTransport

@Suite("IRC message parsing and serialising")
struct IRCMessageParserTests {
  @Test("a numeric reply with a server prefix and a trailing parameter")
  func numericReply() throws {
    let message = try IRCMessage(
      parsing: ":irc.test.local 001 awfulbot :Welcome to the AwfulTest IRC Network awfulbot!bot@127.0.0.1")
    #expect(message.prefix?.name == "irc.test.local")
    #expect(message.prefix?.isServer == true)
    #expect(message.command.numeric == 1)
    #expect(message.command.rawValue == "001")
    #expect(message.parameters == ["awfulbot", "Welcome to the AwfulTest IRC Network awfulbot!bot@127.0.0.1"])
  }

  @Test("no prefix, lower-case command, and a last parameter without a colon")
  func noPrefix() throws {
    let message = try IRCMessage(parsing: "ping irc.test.local")
    #expect(message.prefix == nil)
    #expect(message.command == .ping)
    #expect(message.parameters == ["irc.test.local"])
    #expect(message.sourceNick == nil)
  }

  @Test("a user prefix is split into nick, user and host")
  func userPrefix() throws {
    let message = try IRCMessage(parsing: ":alice!~al@host.example PRIVMSG #Awful :hello there")
    #expect(message.prefix == IRCPrefix(name: "alice", user: "~al", host: "host.example"))
    #expect(message.prefix?.isServer == false)
    #expect(message.sourceNick == "alice")
    #expect(message.parameters == ["#Awful", "hello there"])
  }

  @Test("the trailing parameter keeps colons, extra spaces and may be empty")
  func trailingParameters() throws {
    let colons = try IRCMessage(parsing: "PRIVMSG #c ::) see: this  ")
    #expect(colons.parameters == ["#c", ":) see: this  "])
    let empty = try IRCMessage(parsing: "TOPIC #c :")
    #expect(empty.parameters == ["#c", ""])
    let runs = try IRCMessage(parsing: ":srv   MODE   #c   +o   bob")
    #expect(runs.parameters == ["#c", "+o", "bob"])
  }

  @Test("tags with escapes, values missing, vendor keys and client-only keys")
  func tagsWithEscapes() throws {
    let line =
      #"@time=2026-01-02T03:04:05.678Z;account=alice;msgid=a\:b\sc\\d\re\nf;+example.com/flag;draft/x=\q;trail=end\ :n!u@h PRIVMSG #c :hi"#
    let message = try IRCMessage(parsing: line)
    #expect(message.tags["time"] == "2026-01-02T03:04:05.678Z")
    #expect(message.tags["account"] == "alice")
    #expect(message.tags["msgid"] == "a;b c\\d\re\nf")
    #expect(message.tags["+example.com/flag"] == "")
    #expect(message.tags["draft/x"] == "q", "an unknown escape stands for the character itself")
    #expect(message.tags["trail"] == "end", "a lone backslash at the end is dropped")
    #expect(message.command == .privmsg)
    #expect(message.parameters == ["#c", "hi"])
  }

  @Test("tags round-trip through escaping")
  func tagRoundTrip() throws {
    var tags = IRCTags()
    tags["label"] = "semi;colon space\\back\r\nlines"
    let message = try IRCMessage(tags: tags, command: .privmsg, parameters: ["#c", "x"])
    let line = message.serialized
    #expect(!line.contains("\r") && !line.contains("\n"))
    #expect(try IRCMessage(parsing: line).tags["label"] == "semi;colon space\\back\r\nlines")
  }

  @Test("a CAP LS continuation line and AUTHENTICATE in both forms")
  func capAndAuthenticate() throws {
    let ls = try IRCMessage(parsing: ":irc.test.local CAP * LS * :sasl=PLAIN,EXTERNAL server-time")
    #expect(ls.parameters == ["*", "LS", "*", "sasl=PLAIN,EXTERNAL server-time"])
    #expect(try IRCMessage(parsing: "AUTHENTICATE +").parameters == ["+"])
    #expect(try IRCMessage(parsing: "AUTHENTICATE :+").parameters == ["+"])
  }

  @Test("malformed lines are errors, not guesses")
  func malformed() {
    #expect(throws: IRCParseError.emptyLine) { try IRCMessage(parsing: "   ") }
    #expect(throws: IRCParseError.missingCommand) { try IRCMessage(parsing: ":prefix.only") }
    #expect(throws: IRCParseError.invalidCommand("12")) { try IRCMessage(parsing: "12 foo") }
    #expect(throws: IRCParseError.invalidCommand("PRIV-MSG")) { try IRCMessage(parsing: "PRIV-MSG #c :x") }
    #expect(throws: IRCParseError.invalidTagKey("bad!key")) { try IRCMessage(parsing: "@bad!key PING x") }
  }

  @Test("serialising puts a colon only where needed and refuses line breaks and bad middle parameters")
  func serialising() throws {
    #expect(
      try IRCMessage(command: .privmsg, parameters: ["#c", "hello world"]).serialized == "PRIVMSG #c :hello world")
    #expect(try IRCMessage(command: .nick, parameters: ["bot"]).serialized == "NICK bot")
    #expect(try IRCMessage(command: .privmsg, parameters: ["#c", ":)"]).serialized == "PRIVMSG #c ::)")
    #expect(try IRCMessage(command: .privmsg, parameters: ["#c", ""]).serialized == "PRIVMSG #c :")
    #expect(throws: IRCParseError.self) { try IRCMessage(command: .privmsg, parameters: ["#c", "a\r\nQUIT :x"]) }
    #expect(throws: IRCParseError.self) { try IRCMessage(command: .privmsg, parameters: ["#c", "nul\0"]) }
    #expect(throws: IRCParseError.invalidMiddleParameter("#a b")) {
      try IRCMessage(command: .privmsg, parameters: ["#a b", "x"])
    }
    let round = try IRCMessage(
      prefix: IRCPrefix(name: "n", user: "u", host: "h"), command: .numeric(433),
      parameters: ["*", "bot", "Nick in use"])
    #expect(round.serialized == ":n!u@h 433 * bot :Nick in use")
    #expect(try IRCMessage(parsing: round.serialized) == round)
  }

  @Test("nicks and channel names are validated and compared with RFC 1459 case mapping")
  func nicksAndChannels() throws {
    #expect(try IRCNick("Bot[1]").folded == "bot{1}")
    #expect(throws: IRCNick.Invalid.self) { try IRCNick("1bot") }
    #expect(throws: IRCNick.Invalid.self) { try IRCNick("bot bot") }
    #expect(throws: IRCNick.Invalid.empty) { try IRCNick("") }
    #expect(try IRCChannelName("#Awful~").folded == "#awful^")
    #expect(throws: IRCChannelName.Invalid.self) { try IRCChannelName("awful") }
    #expect(throws: IRCChannelName.Invalid.self) { try IRCChannelName("#a,b") }
    #expect(IRCChannelName.isChannel("#x") && !IRCChannelName.isChannel("alice"))
  }
}
