import Foundation
import Testing

@testable import FakeForum

@Suite("FakeForum replies")
struct ReplyTests {
  /// The hidden fields of the vbform, scraped crudely (the real scraper is tested in the round-trip suite).
  func hiddenValue(_ name: String, in html: String) -> String? {
    guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
    return String(html[range.upperBound...].prefix { $0 != "\"" })
  }

  @Test func replyFormHasAnAmazonFormFirstThenTheVBForm() async throws {
    try await withForum { _, client throws in
      _ = try await client.logIn()
      let html = try await client.get("/newreply.php?action=newreply&threadid=3600002").text
      let amazon = try #require(html.range(of: "<form id=\"amazon\""))
      let vbform = try #require(html.range(of: "name=\"vbform\""))
      #expect(amazon.lowerBound < vbform.lowerBound)
      #expect(hiddenValue("action", in: html) == "postreply")
      #expect(hiddenValue("threadid", in: html) == "3600002")
      #expect(hiddenValue("formkey", in: html)?.count == 32)
      #expect(hiddenValue("form_cookie", in: html)?.count == 12)
      #expect(html.contains("<textarea name=\"message\""))
      #expect(html.contains("name=\"parseurl\" value=\"yes\" checked"))
    }
  }

  @Test func postingAReplyDecodesWindows1252AndEntitiesAndLinksTheNewPost() async throws {
    try await withForum { server, client throws in
      _ = try await client.logIn()
      let form = try await client.get("/newreply.php?action=newreply&threadid=3600002").text
      let message = "Ça va? “Quotes” — emoji 😀 and 日本\r\nsecond line"
      let reply = try await client.postMultipart(
        "/newreply.php",
        fields: [
          ("action", "postreply"), ("threadid", "3600002"), ("formkey", hiddenValue("formkey", in: form) ?? ""),
          ("form_cookie", hiddenValue("form_cookie", in: form) ?? ""), ("message", ""), ("message", message),
          ("parseurl", "yes"), ("MAX_FILE_SIZE", "2097152"), ("submit", "Submit Reply"),
        ])
      #expect(reply.status == 200)
      let thread = try #require(await server.state.thread(3_600_002))
      let postID = try #require(thread.postIDs.last)
      #expect(reply.text.contains("showthread.php?goto=post&amp;postid=\(postID)"))
      let post = try #require(await server.state.post(postID))
      #expect(post.body == .bbcode("Ça va? “Quotes” — emoji 😀 and 日本\nsecond line"))
      #expect(post.authorID == FakeForumSeed.botUserID)
      // The author has read their own post.
      #expect(await server.state.lastRead(user: FakeForumSeed.botUserID, thread: 3_600_002) == thread.postCount)
      // The form cookie is single use.
      let replay = try await client.postMultipart(
        "/newreply.php",
        fields: [
          ("action", "postreply"), ("threadid", "3600002"), ("formkey", hiddenValue("formkey", in: form) ?? ""),
          ("form_cookie", hiddenValue("form_cookie", in: form) ?? ""), ("message", "again"), ("submit", "Submit Reply"),
        ])
      #expect(replay.text.contains("class=\"standarderror\""))
    }
  }

  @Test func wrongFormKeyIsRejected() async throws {
    try await withForum { server, client throws in
      _ = try await client.logIn()
      let before = await server.state.thread(3_600_002)?.postCount
      let reply = try await client.postMultipart(
        "/newreply.php",
        fields: [
          ("action", "postreply"), ("threadid", "3600002"), ("formkey", "nope"), ("form_cookie", "nope"),
          ("message", "hi"), ("submit", "Submit Reply"),
        ])
      #expect(reply.text.contains("class=\"standarderror\""))
      #expect(await server.state.thread(3_600_002)?.postCount == before)
    }
  }

  @Test func quotingAPostPrefillsTheMessage() async throws {
    try await withForum { server, client throws in
      _ = try await client.logIn()
      let postID = try #require(await server.state.thread(3_600_003)?.postIDs.first)
      let html = try await client.get("/newreply.php?action=newreply&postid=\(postID)").text
      #expect(html.contains("[quote=&quot;Pickled Tink&quot; post=&quot;\(postID)&quot;]"))
    }
  }
}
