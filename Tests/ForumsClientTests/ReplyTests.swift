import FakeForum
import ForumModel
import Foundation
import Testing

@testable import ForumsClient

@Suite("Replies", .serialized)
struct ReplyTests {
  @Test func nonLatinTextAndEmojiComeBackUnchanged() async throws {
    try await withFakeForum { forum in
      let text = "Привет, мир! 日本語テキスト, Ça marche — “quoted” 😀🇨🇦\nSecond line ✓"
      let result = try await forum.client.reply(threadID: "3600002", text: text)
      guard case .post(let id) = result else {
        Issue.record("expected a post id, got \(result)")
        return
      }
      // What the forum stored: windows-1252 with entities, decoded back, line breaks as the user typed them.
      let stored = try #require(await forum.state.post(Int(id)!))
      #expect(stored.body == .bbcode(text))

      // And what reading the thread gives back.
      let page = try await forum.client.threadPage(threadID: "3600002", page: .last)
      let post = try #require(page.posts.last)
      #expect(post.id == id)
      #expect(post.author.name == FakeForumSeed.botUsername)
      #expect(plainText(post.body) == text)
    }
  }

  @Test func postsEveryFieldOfTheFormInWindows1252() async throws {
    try await withFakeForum { forum in
      _ = try await forum.client.reply(threadID: "3600003", text: "one\ntwo")
      let requests = await forum.requests(to: "/newreply.php")
      #expect(requests.count == 2)
      #expect(requests[0].method == "GET")
      #expect(requests[0].queryValue("action") == "newreply")
      #expect(requests[0].queryValue("threadid") == "3600003")
      let post = requests[1]
      #expect(post.method == "POST")
      for name in ["action", "threadid", "formkey", "form_cookie", "parseurl", "MAX_FILE_SIZE"] {
        #expect(post.formValue(name) != nil, "missing \(name)")
      }
      #expect(post.formValue("action") == "postreply")
      #expect(post.formValue("message") == "one\r\ntwo")
      #expect(post.formValue("submit") == "Submit Reply")
      #expect(post.formValue("preview") == nil)
      // Unchecked boxes are not sent; the pre-checked bookmark box is.
      #expect(post.formValue("disablesmilies") == nil)
      #expect(post.formValue("bookmark") == "yes")
    }
  }

  @Test func replyingToAClosedThreadSaysItIsClosed() async throws {
    try await withFakeForum { forum in
      let error = await clientError { _ = try await forum.client.reply(threadID: "3600004", text: "hello") }
      #expect(error == .threadClosed(message: "Sorry! This thread is closed!"))
      #expect(error?.postingRefusal?.reason == .threadClosed)
      #expect(error?.description.contains("Sorry! This thread is closed!") == true)
      #expect(await forum.requests(to: "/newreply.php").filter { $0.method == "POST" }.isEmpty)
    }
  }

  @Test func aPostThatMayHaveReachedTheForumIsNotRetried() async throws {
    try await withFakeForum { forum in
      await forum.state.setFault(.serverError(count: 5))
      let transport = await forum.client.transport
      let reply = try await transport.send(
        .post("newreply.php", form: [FormField("action", "postreply")], isIdempotent: false))
      #expect(reply.status == 500)
      #expect(await forum.requests(to: "/newreply.php").count == 1)
      // An idempotent form (a bookmark change) is retried like a page.
      let bookmark = try await transport.send(.post("bookmarkthreads.php", form: [FormField("json", "1")]))
      #expect(bookmark.status == 500)
      #expect(await forum.requests(to: "/bookmarkthreads.php").count == 3)
    }
  }
}
