import AwfulBotTestKit
import Foundation
import Testing

@testable import FakeForum

/// `attachment.php` (issue 44): the forum's own attachments, served to a logged-in session only; the must-register
/// page to anyone else, the forum's error page for a number it does not hold; posts that show them.
@Suite("FakeForum attachments")
struct AttachmentPageTests {
  @Test("a logged-in session gets the stored bytes and type; nobody else does")
  func servedToSessionsOnly() async throws {
    try await withForum { server, client throws in
      let id = await server.state.addAttachment(bytes: FakeImages.cat, contentType: "image/gif")
      let anonymous = try await client.get("/attachment.php?attachmentid=\(id)")
      #expect(anonymous.text.contains("Sorry, you must be a registered forums member to view this page."))
      #expect(anonymous.contentType?.hasPrefix("text/html") == true)
      #expect(anonymous.headers("Set-Cookie").contains { $0.hasPrefix("bbuserid=deleted") })
      #expect(anonymous.body != FakeImages.cat)
      _ = try await client.logIn()
      let file = try await client.get("/attachment.php?attachmentid=\(id)")
      #expect(file.status == 200 && file.body == FakeImages.cat && file.contentType == "image/gif")
      #expect(await server.state.requests().last?.path == "/attachment.php", "logged like any forum request")
    }
  }

  @Test("an unknown, deleted or junk number is the forum's standard error page")
  func unknown() async throws {
    try await withForum { server, client throws in
      _ = try await client.logIn()
      await server.state.removeAttachment(70_001)
      for query in ["attachmentid=70001", "attachmentid=123", "attachmentid=abc", ""] {
        let reply = try await client.get("/attachment.php?\(query)")
        #expect(reply.text.contains("Invalid Attachment specified."), "\(query)")
        #expect(reply.text.contains("standarderror"))
      }
      #expect(try await client.get("/attachment.php?attachmentid=70002").body == FakeImages.cat, "the seed's cat")
    }
  }

  @Test("the admin API stores files and adds posts showing them, relative as the forum's posts hold them")
  func adminAPI() async throws {
    try await withForum { server, client throws in
      let stored = try await client.admin.send("POST", "/_fake/attachments", json: #"{"image": "desk.png"}"#)
      let storedID = try #require((try stored.json() as? [String: Int])?["attachmentID"])
      #expect(await server.state.attachments.attachment(storedID)?.bytes == FakeImages.desk)
      let withPost = try await client.admin.send(
        "POST", "/_fake/attachments",
        json: #"{"sample": "page", "post": {"thread": 3600003, "author": "Pickled Tink", "body": "My desk:"}}"#)
      let reply = try #require(try withPost.json() as? [String: Int])
      let attachmentID = try #require(reply["attachmentID"])
      let postID = try #require(reply["postID"])
      let post = try #require(await server.state.post(postID))
      #expect(post.body == .bbcode("My desk:\n[img]attachment.php?attachmentid=\(attachmentID)[/img]"))
      _ = try await client.logIn()
      let page = try await client.get("/showthread.php?threadid=3600003&perpage=40")
      #expect(page.text.contains(#"<img src="attachment.php?attachmentid=\#(attachmentID)""#))
      let hostile = try await client.get("/attachment.php?attachmentid=\(attachmentID)")
      #expect(hostile.text.contains("Checking your browser"), "the sample page, served as the attachment")
      let chosen = try await client.admin.send(
        "POST", "/_fake/attachments", json: #"{"base64": "R0lGODlh", "contentType": "image/gif", "id": 5}"#)
      #expect((try chosen.json() as? [String: Int])?["attachmentID"] == 5)
      let deleted = try await client.admin.send("DELETE", "/_fake/attachments/5")
      #expect(deleted.status == 200)
      #expect(try await client.get("/attachment.php?attachmentid=5").text.contains("Invalid Attachment specified."))
    }
  }
}
