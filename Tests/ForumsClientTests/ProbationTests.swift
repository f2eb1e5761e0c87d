import FakeForum
import ForumModel
import Foundation
import Testing

@testable import ForumsClient

/// An account on probation reads as usual; only posting is refused (docs: DESIGN "Errors are errors").
@Suite("Probation", .serialized)
struct ProbationTests {
  /// 12:30 in Chicago on Jan 1, 2026.
  static let end = Date(timeIntervalSince1970: 1_767_292_200)

  @Test func theBookmarkedThreadsPostsAreReadAndTheProbationReported() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.setProbation(until: Self.end)
      let newPost = try await forum.state.addPost(
        thread: 3_600_002, author: 1002, body: "Posted while the bot is on probation")

      let bookmarks = try await forum.client.bookmarks(page: 1)
      let thread = try #require(bookmarks.threads.first { $0.id == "3600002" })
      #expect(thread.postCount == 5)
      let probation = try #require(bookmarks.probation)
      #expect(probation.until == Self.end)
      #expect(probation.untilRaw == "Jan 1, 2026 12:30")
      #expect(probation.message.contains("ON PROBATION"))
      #expect(await forum.client.probation == probation)

      let after = try await forum.client.posts(threadID: "3600002", after: 4)
      #expect(after.posts.map(\.id) == ["\(newPost)"])
      #expect(after.posts.first.map { plainText($0.body) } == "Posted while the bot is on probation")
      #expect(after.probation == probation)

      let page = try await forum.client.threadPage(threadID: "3600002", page: .last)
      #expect(page.posts.last?.id == "\(newPost)")
      #expect(page.probation == probation)

      // The probation ends: the next page read says so.
      await forum.state.clearFault(.probation)
      #expect(try await forum.client.bookmarks(page: 1).probation == nil)
      #expect(await forum.client.probation == nil)
    }
  }

  @Test func repliesAndPrivateMessagesAreRefusedWithoutPosting() async throws {
    try await withFakeForum { forum in
      let pm = try await forum.state.sendPrivateMessage(
        from: 1002, to: FakeForumSeed.botUserID, title: "Hello", body: "Can you relay my thread?")
      await forum.state.setProbation(until: Self.end)

      let reply = await clientError { _ = try await forum.client.reply(threadID: "3600002", text: "hello") }
      guard case .probation(let message) = reply else {
        Issue.record("expected .probation, got \(String(describing: reply))")
        return
      }
      #expect(message.contains("until Jan 1, 2026 12:30"))
      #expect(await forum.client.probation?.until == Self.end)

      let send = await clientError {
        try await forum.client.sendPrivateMessage(to: "Pickled Tink", subject: "Hi", text: "hello")
      }
      #expect(send == reply)
      let pmReply = await clientError { try await forum.client.replyToPrivateMessage(id: "\(pm)", text: "sure") }
      #expect(pmReply == reply)

      #expect(await forum.requests(to: "/newreply.php").allSatisfy { $0.method == "GET" })
      #expect(await forum.requests(to: "/private.php").allSatisfy { $0.method == "GET" })
      #expect(await forum.state.thread(3_600_002)?.postCount == 4)
      #expect(await forum.state.privateMessages(user: 1002).isEmpty)
    }
  }

  /// Should a form reach the forum anyway, its refusal is the same typed error.
  @Test func theForumsOwnRefusalIsTheProbationToo() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.setProbation(until: Self.end)
      let transport = await forum.client.transport
      let response = try await transport.send(
        .post(
          "newreply.php", form: [FormField("action", "postreply"), FormField("threadid", "3600002")],
          isIdempotent: false))
      let error: ForumsClientError?
      do {
        _ = try PageReader.document(from: response, page: "reply result")
        error = nil
      } catch let thrown as ForumsClientError {
        error = thrown
      }
      guard case .probation(let message) = error else {
        Issue.record("expected .probation, got \(String(describing: error))")
        return
      }
      #expect(message.hasPrefix("You are on probation and cannot post until Jan 1, 2026 12:30."))
    }
  }
}
