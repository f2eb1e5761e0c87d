import ChatBridge
import ChatRendering
import ForumModel
import Foundation
import Testing

@Suite("Plain text: Leper's Colony entries")
struct PunishmentTextRenderingTests {
  static func relay(_ reason: [RichText], excerptLength: Int = 400, moderator: String = "Ralp") -> PunishmentRelay {
    PunishmentRelay(
      sentence: "ban", probationLength: nil, user: "Horrible Jerk", moderator: moderator, reason: reason,
      date: ChatDate(Date(timeIntervalSince1970: 1_384_099_800), timeZone: .gmt),
      link: "https://forums.example.com/showthread.php?goto=post&postid=7#post7", linksPost: true,
      excerptLength: excerptLength)
  }

  @Test("one line: sentence, user, moderator and date, the reason on one line, the link")
  func line() {
    let lines = TextRendering.lines(
      .punishment(Self.relay([.paragraph([.text("Posting")]), .lineBreak, .text("spam "), .spoiler([.text("x")])])))
    #expect(
      lines == [
        "BAN: Horrible Jerk, by Ralp on 2013-11-10 16:10 UTC: Posting spam [spoiler] "
          + "https://forums.example.com/showthread.php?goto=post&postid=7#post7"
      ])
  }

  @Test("a long reason is cut with … and the link still ends the line; no moderator named is said so")
  func longReason() throws {
    let reason = String(repeating: "word ", count: 200)
    let line = try #require(
      TextRendering.lines(.punishment(Self.relay([.text(reason)], excerptLength: 50, moderator: ""))).first)
    #expect(line.contains("by an unnamed moderator on"))
    #expect(line.contains("…"))
    #expect(line.hasSuffix(" https://forums.example.com/showthread.php?goto=post&postid=7#post7"))
    #expect(line.count < 200)
  }

  @Test("a hostile reason: control characters and line breaks go, mentions are defused")
  func hostile() throws {
    let line = try #require(
      TextRendering.lines(
        .punishment(Self.relay([.text("@room\n\u{202E}evil\u{03}04red @alice:example.org\r\nPRIVMSG")]))
      )
      .first)
    #expect(!line.contains("\n") && !line.contains("\r") && !line.contains("\u{202E}") && !line.contains("\u{03}"))
    #expect(!line.contains("@room") && !line.contains("@alice"))
    #expect(line.contains("@\u{2060}room"))
  }
}
