import BotCore
import Foundation
import Testing

@testable import IRCTransport

@Suite("IRC text: sanitising, splitting, layout")
struct IRCTextLayoutTests {
  @Test("line breaks of every kind split lines; NUL and other controls vanish")
  func sanitiser() {
    let lines = IRCTextSanitizer.lines(
      "one\r\nQUIT :x\rtwo\u{0}\u{07}\u{1B}[31m\nthree\u{2028}four\u{85}five\u{202E}\t!")
    #expect(lines == ["one", "QUIT :x", "two[31m", "three", "four", "five !"])
    #expect(IRCTextSanitizer.singleLine("a\r\nb") == "a b")
  }

  @Test("mIRC formatting is stripped from what users type")
  func stripFormatting() {
    #expect(IRCTextSanitizer.stripFormatting("\u{02}!help\u{02} \u{03}04,12red\u{03} \u{1D}it\u{0F}") == "!help red it")
    #expect(IRCTextSanitizer.stripFormatting("\u{03}3,x") == ",x")
  }

  @Test("pieces stay within the byte limit, never split a character, and concatenate back to the text")
  func splitter() {
    let text = String(repeating: "naïve 日本語テキスト 🎉👍🏽 ", count: 60)
    for limit in [16, 37, 100, 400] {
      let pieces = IRCLineSplitter.split(text, maxBytes: limit)
      #expect(pieces.allSatisfy { $0.utf8.count <= limit && !$0.isEmpty })
      #expect(pieces.joined() == text)
    }
  }

  @Test("a piece prefers to end after a space near its end")
  func wordBreaks() {
    let pieces = IRCLineSplitter.split("aaaa bbbb cccc dddd", maxBytes: 12)
    #expect(pieces == ["aaaa bbbb ", "cccc dddd"])
  }

  @Test("a long message is cut to the line cap and ends with an ellipsis and the link")
  func layoutCut() {
    let link = "https://forums.example/showthread.php?goto=post&postid=42"
    let body = String(repeating: "word ", count: 200)
    let message = OutgoingMessage(kind: .relay, text: "Title — alice\n\(body)\n\(link)", link: link)
    let lines = IRCMessageLayout(maxLines: 4).lines(for: message, maxBytesPerLine: 120)
    #expect(lines.count == 4)
    #expect(lines[0] == "Title — alice")
    #expect(lines[2].hasSuffix("…"))
    #expect(lines[3] == link)
    #expect(lines.allSatisfy { $0.utf8.count <= 120 })
  }

  @Test("a message that fits keeps every line and its link once")
  func layoutFits() {
    let message = OutgoingMessage(kind: .reply, text: "one\ntwo\nhttps://x/1", link: "https://x/1")
    #expect(IRCMessageLayout().lines(for: message, maxBytesPerLine: 400) == ["one", "two", "https://x/1"])
  }

  @Test("titles of relayed posts are bold (and coloured) only when configured")
  func formatting() {
    let message = OutgoingMessage(kind: .relay, text: "Thread \u{02}title — bob, today\nbody")
    let plain = IRCMessageLayout().lines(for: message, maxBytesPerLine: 400)
    #expect(plain[0] == "Thread title — bob, today", "forum text cannot bring its own formatting codes")
    let bold = IRCMessageLayout(mircFormatting: true, titleColour: 4).lines(for: message, maxBytesPerLine: 400)
    #expect(bold[0] == "\u{02}\u{03}04Thread title\u{0F} — bob, today")
    let reply = OutgoingMessage(kind: .reply, text: "Reply — not a title")
    #expect(IRCMessageLayout(mircFormatting: true).lines(for: reply, maxBytesPerLine: 400) == ["Reply — not a title"])
  }

  @Test("masks match with wildcards and case mapping; accounts are exact")
  func permissions() {
    let permissions = IRCPermissions(admins: ["root", "*!*@admin.example"], members: ["*!~fan@*.net"])
    let someone = IRCPrefix(name: "Zed", user: "z", host: "elsewhere.org")
    #expect(permissions.role(account: "ROOT", source: someone, channelModes: []) == .admin)
    #expect(
      permissions.role(account: nil, source: IRCPrefix(name: "x", user: "y", host: "ADMIN.example"), channelModes: [])
        == .admin)
    #expect(
      permissions.role(account: nil, source: IRCPrefix(name: "f", user: "~fan", host: "a.b.net"), channelModes: [])
        == .member)
    #expect(permissions.role(account: "rooty", source: someone, channelModes: []) == nil)
  }

  @Test("ISUPPORT PREFIX and CHANMODES are read")
  func serverSupport() {
    var support = IRCServerSupport()
    support.apply(tokens: ["PREFIX=(qaohv)~&@%+", "CHANMODES=beI,kL,lj,imnpst", "NETWORK=x"])
    #expect(support.mode(forSymbol: "~") == "q")
    #expect(support.isMemberMode("h"))
    #expect(support.alwaysParameter == ["b", "e", "I", "k", "L"])
    #expect(support.parameterWhenSet == ["l", "j"])
  }

  @Test("configuration decodes with defaults and reports every problem")
  func configuration() throws {
    let json =
      ##"{"host":"irc.example","nick":"awfulbot","channels":[{"name":"#a","key":"k"}],"sasl":{"account":"a","password":"p"}}"##
    let decoded = try JSONDecoder().decode(IRCTransportConfiguration.self, from: Data(json.utf8))
    #expect(decoded.port == 6697 && decoded.tls && decoded.linesPerMessage == 4 && decoded.floodBurst == 4)
    #expect(decoded.relayAs == .notice && decoded.sasl?.mechanism == .plain)
    try decoded.validate()
    #expect(!decoded.description.contains("p\""), "secrets stay out of descriptions")
    var bad = decoded
    bad.nick = "1bad"
    bad.channels = [.init(name: "nochannel")]
    bad.sasl = .init(mechanism: .external)
    #expect(throws: IRCConfigurationError.self) { try bad.validate() }
    do {
      try bad.validate()
    } catch {
      #expect(error.problems.count >= 3)
    }
  }
}
