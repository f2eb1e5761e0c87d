import ForumModel
import Foundation
import Testing

@testable import AwfulScraping

/// The forum's own attachments in a post body (`<img src="attachment.php?attachmentid=N">`, issue 44): a picture
/// only the forum session may fetch, told apart from an off-site picture, relative or absolute on the forum's host.
struct ForumAttachmentConversionTests {
  func convert(_ html: String, base: String = "https://forums.somethingawful.com/showthread.php?threadid=1") throws
    -> [RichText]
  {
    let document = try HTMLDocument(string: "<html><body><td class=\"postbody\">\(html)</td></body></html>")
    let cell = try #require(document.body?.firstDescendant("td", class: "postbody"))
    return PostBodyConverter(baseURL: URL(string: base)).convert(PostContent(cell).nodes)
  }

  @Test("a relative attachment is the forum's attachment, with its absolute address")
  func relative() throws {
    #expect(
      try convert(#"Look: <img src="attachment.php?attachmentid=4321" alt="" border="0">"#) == [
        .text("Look: "),
        .attachment(id: "4321", url: "https://forums.somethingawful.com/attachment.php?attachmentid=4321"),
      ])
    #expect(
      try convert(#"<img src="/attachment.php?attachmentid=7&amp;d=1712345678">"#) == [
        .attachment(id: "7", url: "https://forums.somethingawful.com/attachment.php?attachmentid=7")
      ], "the query's other parameters are dropped")
  }

  @Test("an absolute attachment on the forum's host (either scheme, any case) is one; the emulator's port counts")
  func absolute() throws {
    #expect(
      try convert(#"<img src="http://Forums.SomethingAwful.com/attachment.php?attachmentid=0012">"#) == [
        .attachment(id: "12", url: "http://Forums.SomethingAwful.com/attachment.php?attachmentid=12")
      ])
    let emulator = "http://127.0.0.1:8123/showthread.php?threadid=3"
    #expect(
      try convert(#"<img src="attachment.php?attachmentid=5">"#, base: emulator) == [
        .attachment(id: "5", url: "http://127.0.0.1:8123/attachment.php?attachmentid=5")
      ])
    #expect(
      try convert(#"<img src="http://127.0.0.1:8123/attachment.php?attachmentid=5">"#, base: emulator) == [
        .attachment(id: "5", url: "http://127.0.0.1:8123/attachment.php?attachmentid=5")
      ])
  }

  @Test("attachment.php on another host or port is an off-site picture, never asked with the session")
  func foreignHost() throws {
    for src in [
      "https://evil.example/attachment.php?attachmentid=5",
      "https://forums.somethingawful.com.evil.example/attachment.php?attachmentid=5",
      "https://forums.somethingawful.com:8443/attachment.php?attachmentid=5",
      "https://i.somethingawful.com/attachment.php?attachmentid=5",
      "https://forums.somethingawful.com/x/attachment.php?attachmentid=5",
    ] {
      #expect(try convert("<img src=\"\(src)\">") == [.image(url: src)], "\(src)")
    }
    let emulator = "http://127.0.0.1:8123/showthread.php?threadid=3"
    #expect(
      try convert(#"<img src="http://127.0.0.1:9999/attachment.php?attachmentid=5">"#, base: emulator) == [
        .image(url: "http://127.0.0.1:9999/attachment.php?attachmentid=5")
      ])
  }

  @Test("junk ids make a plain link: no picture, nothing fetched, no other attachment by clamping")
  func junkIDs() throws {
    for id in ["", "abc", "-5", "5x", "0", "00", "1e3", "99999999999999999999999", "1000000001", "+5", "٣", "5%00"] {
      let src = "https://forums.somethingawful.com/attachment.php?attachmentid=\(id)"
      let nodes = try convert("<img src=\"\(src)\">")
      #expect(nodes.count == 1, "\(id)")
      guard case .link(_, let label)? = nodes.first else {
        Issue.record("\(id): \(nodes)")
        continue
      }
      #expect(label.count == 1, "\(id)")
    }
    let missing = try convert(#"<img src="attachment.php?postid=5">"#)
    guard case .link? = missing.first else { throw Failure(description: "\(missing)") }
    #expect(
      try convert(#"<img src="attachment.php?attachmentid=1000000000">"#) == [
        .attachment(id: "1000000000", url: "https://forums.somethingawful.com/attachment.php?attachmentid=1000000000")
      ], "the largest number a forum page may give")
  }

  @Test("a link to an attachment stays a link; the chat text keeps the attachment's absolute address")
  func plainText() throws {
    let nodes = try convert(
      #"See <img src="attachment.php?attachmentid=9"> and <a href="attachment.php?attachmentid=9">it</a>"#)
    #expect(
      ForumModel.plainText(nodes)
        == "See [image] https://forums.somethingawful.com/attachment.php?attachmentid=9 and it "
        + "(https://forums.somethingawful.com/attachment.php?attachmentid=9)")
  }

  @Test("stored rows written before the case existed still decode, and the new case round-trips")
  func coding() throws {
    let old = try JSONEncoder().encode([RichText.image(url: "https://i.example/a.png"), .text("x")])
    #expect(
      try JSONDecoder().decode([RichText].self, from: old) == [.image(url: "https://i.example/a.png"), .text("x")])
    let node = RichText.attachment(id: "5", url: "https://forums.somethingawful.com/attachment.php?attachmentid=5")
    #expect(try JSONDecoder().decode(RichText.self, from: JSONEncoder().encode(node)) == node)
  }

  struct Failure: Error, CustomStringConvertible { var description: String }
}
