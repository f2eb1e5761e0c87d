import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import ChatRendering
import ForumModel
import Foundation
import Testing

@testable import MatrixTransport

@Suite("Matrix rendering: Leper's Colony entries")
struct MatrixPunishmentRenderingTests {
  static let postLink = "https://forums.somethingawful.com/showthread.php?goto=post&postid=421665753#post421665753"

  static func relay(
    _ reason: [RichText], user: String = "Kheldragar", moderator: String = "Ralp", linksPost: Bool = true,
    sentence: String = "probation", length: String? = "6 hours"
  ) -> PunishmentRelay {
    PunishmentRelay(
      sentence: sentence, probationLength: length, user: user, moderator: moderator, reason: reason,
      date: ChatDate(Date(timeIntervalSince1970: 1_384_099_800), timeZone: .gmt),
      link: linksPost ? postLink : "https://forums.somethingawful.com/banlist.php?userid=202925",
      linksPost: linksPost, excerptLength: 400)
  }

  static func render(_ relay: PunishmentRelay) throws -> MatrixRenderer.Rendered {
    let events = MatrixRenderer().render(.punishment(relay))
    #expect(events.count == 1)
    return try #require(events.first)
  }

  @Test("an entry: the sentence, the user, the moderator and date, the reason as rich text, a link to the post")
  func shape() throws {
    let event = try Self.render(Self.relay([.text("being as "), .bold([.text("shitty as you")]), .text(".")]))
    #expect(
      event.body
        == "PROBATION (6 hours): Kheldragar, by Ralp on 2013-11-10 16:10 UTC: being as shitty as you. \(Self.postLink)")
    #expect(
      event.html
        == "<p><b>PROBATION (6 hours)</b>: <b>Kheldragar</b>, by Ralp on 2013-11-10 16:10 UTC:</p>"
        + "<blockquote>being as <b>shitty as you</b>.</blockquote>"
        + #"<p><a href="https://forums.somethingawful.com/showthread.php?goto=post&amp;postid=421665753#post421665753">"#
        + "The post that earned it</a></p>")
  }

  @Test("an entry without a post links the rap sheet; one without a reason says so")
  func withoutPostOrReason() throws {
    let event = try Self.render(Self.relay([], linksPost: false, sentence: "autoban", length: nil))
    #expect(event.body.hasPrefix("AUTOBAN: Kheldragar, by Ralp on 2013-11-10 16:10 UTC: no reason was given. "))
    let html = try #require(event.html)
    #expect(html.contains("<i>No reason was given.</i>"))
    #expect(
      html.contains(#"<a href="https://forums.somethingawful.com/banlist.php?userid=202925">Their rap sheet</a>"#))
  }

  @Test("a hostile reason: markup stays text or allowed tags, no script, no javascript: link, no ping")
  func hostileReason() throws {
    let reason: [RichText] = [
      .text("<script>alert(1)</script><img src=x onerror=alert(1)> "),
      .link(url: "javascript:alert(1)", [.text("appeal here")]),
      .text(" @room @everyone @alice:example.org @bob:example.org @carol:example.org "),
      .link(url: "https://matrix.to/#/@admin:example.org", [.text("the admin")]),
    ]
    let event = try Self.render(Self.relay(reason, user: "@room", moderator: "@here"))
    let html = try #require(event.html)
    for (name, attributes) in HTMLTags.tags(in: html) {
      #expect(HTMLAllowList.allows(tag: name), "tag \(name) is not allowed")
      for attribute in attributes {
        #expect(HTMLAllowList.allows(tag: name, attribute: attribute), "attribute \(attribute) on \(name)")
      }
    }
    let lowered = html.lowercased()
    #expect(!lowered.contains("<script") && !lowered.contains("<img") && !lowered.contains("javascript"))
    #expect(!html.contains("matrix.to"))
    #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    for text in [event.body, html] {
      for mention in ["@room", "@everyone", "@here", "@alice", "@bob", "@carol"] {
        #expect(!text.contains(mention), "\(mention)")
      }
      #expect(text.contains("@\u{2060}room"))
    }
  }

  @Test("the count past a room's replay cap links the Colony and names the users once each")
  func summary() throws {
    let events = MatrixRenderer().render(
      .punishments(
        PunishmentSummary(
          count: 5, users: ["a", "b", "a", "@room", "c"], link: "https://forums.somethingawful.com/banlist.php")))
    let event = try #require(events.first)
    #expect(
      event.body
        == "5 more Leper's Colony entries, for a, b, @\u{2060}room and 1 other: https://forums.somethingawful.com/banlist.php"
    )
    #expect(
      event.html
        == "5 more Leper&#39;s Colony entries, for a, b, @\u{2060}room and 1 other: "
        + #"<a href="https://forums.somethingawful.com/banlist.php">the Leper&#39;s Colony</a>"#)
  }
}
