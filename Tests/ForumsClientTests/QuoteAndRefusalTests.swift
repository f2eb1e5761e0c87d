import AwfulBotTestKit
import FakeForum
import ForumModel
import Foundation
import Testing

@testable import ForumsClient

/// Quoting a post (the Quote button's text) and the forum's refusals of a reply, typed with the forum's own words.
@Suite("Quotes and reply refusals", .serialized)
struct QuoteAndRefusalTests {
  @Test func quoteReadsTheQuoteButtonsTextAndRoundTripsThroughAReply() async throws {
    try await withFakeForum { forum in
      let thread = try await forum.state.addThread(forum: 273, title: "Quotes", author: 1002, body: "first")
      let postID = try await forum.state.addPost(
        thread: thread, author: 1003,
        body: "[quote=\"Pickled Tink\" post=\"1\"]\nfirst\n[/quote]\nПривет <b>not a tag</b> & “smart” 😀\nline two")
      let quote = try await forum.client.quote(postID: "\(postID)")
      #expect(
        quote
          == "[quote=\"Zoë Québec\" post=\"\(postID)\"]\nПривет <b>not a tag</b> & “smart” 😀\nline two\n[/quote]\n\n")
      let requests = await forum.requests(to: "/newreply.php")
      #expect(requests.map(\.method) == ["GET"])
      #expect(requests.first?.queryValue("postid") == "\(postID)")

      // Quote, answer below it, post: the forum stores exactly that.
      let text = quote + "My answer."
      guard case .post(let newID) = try await forum.client.reply(threadID: "\(thread)", text: text) else {
        Issue.record("expected the new post's id")
        return
      }
      #expect(await forum.state.post(Int(newID)!)?.body == .bbcode(text))
    }
  }

  @Test func quotingAnUnknownPostIsNotFound() async throws {
    try await withFakeForum { forum in
      let error = await clientError { _ = try await forum.client.quote(postID: "999999999") }
      guard case .notFound(let notFound) = error else {
        Issue.record("expected .notFound, got \(String(describing: error))")
        return
      }
      #expect(notFound.subject == .post)
    }
  }

  @Test func quotingWorksOnProbationButReplyingIsRefusedTyped() async throws {
    try await withFakeForum { forum in
      let postID = try #require(await forum.state.thread(3_600_002)?.postIDs.first)
      await forum.state.setFault(.probation)
      #expect(try await forum.client.quote(postID: "\(postID)").hasPrefix("[quote=\"Zoë Québec\""))
      #expect(await forum.client.probation != nil)
      let error = await clientError { _ = try await forum.client.reply(threadID: "3600002", text: "hello") }
      #expect(error?.postingRefusal?.reason == .probation)
      #expect(error?.description.contains("ON PROBATION") == true)
    }
  }

  @Test func aReplyTooSoonIsTheFloodCheckWithTheSecondsLeftThenGoesThroughAfterThem() async throws {
    let clock = TestClock()
    try await withFakeForum(forum: { $0.now = { clock.now() } }) { forum in
      await forum.state.setFault(.floodCheck(seconds: 30))
      _ = try await forum.client.reply(threadID: "3600002", text: "first")
      let count = await forum.state.thread(3_600_002)?.postCount

      clock.advance(by: 12)
      let error = await clientError { _ = try await forum.client.reply(threadID: "3600002", text: "second") }
      let sentence = "This forum requires that you wait 30 seconds between posts. Please try again in 18 seconds."
      #expect(error == .floodCheck(message: sentence, interval: 30, retryAfter: 18))
      #expect(error?.description.contains(sentence) == true)
      let refusal = try #require(error?.postingRefusal)
      #expect(refusal.reason == .floodCheck(interval: 30, retryAfter: 18))
      #expect(refusal.retryAfter == 18)
      #expect(refusal.message == sentence)
      #expect(refusal.description == "The forum says: \(sentence)")
      #expect(error?.isTransient == false)
      #expect(await forum.state.thread(3_600_002)?.postCount == count)

      clock.advance(by: 18)
      guard case .post = try await forum.client.reply(threadID: "3600002", text: "second") else {
        Issue.record("expected the reply to go through once the interval passed")
        return
      }
      #expect(await forum.state.thread(3_600_002)?.postCount == count.map { $0 + 1 })
    }
  }

  @Test func aClosedThreadIsARefusalInTheForumsWords() async throws {
    try await withFakeForum { forum in
      let postID = try #require(await forum.state.thread(3_600_004)?.postIDs.first)
      let quoteError = await clientError { _ = try await forum.client.quote(postID: "\(postID)") }
      #expect(quoteError == .threadClosed(message: "Sorry! This thread is closed!"))
      let replyError = await clientError { _ = try await forum.client.reply(threadID: "3600004", text: "hi") }
      let refusal = try #require(replyError?.postingRefusal)
      #expect(refusal == PostingRefusal(.threadClosed, message: "Sorry! This thread is closed!"))
      #expect(refusal.retryAfter == nil)
    }
  }
}
