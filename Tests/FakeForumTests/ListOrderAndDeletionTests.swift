import AwfulBotTestKit
import Foundation
import Testing

@testable import FakeForum

/// The emulator's hooks for issue 28: a bookmarks page sorted otherwise than newest last post first (a sort
/// preference), and a post deleted by a moderator (later posts move up, the thread's last post goes back).
@Suite("FakeForum bookmark order and deleted posts")
struct ListOrderAndDeletionTests {
  /// The thread ids of a bookmarks page, in page order.
  private static func rowIDs(_ html: String) -> [Int] {
    html.components(separatedBy: "<tr class=\"thread").dropFirst().compactMap { row in
      guard let start = row.range(of: "id=\"thread") else { return nil }
      return Int(row[start.upperBound...].prefix { $0.isNumber })
    }
  }

  @Test func bookmarksSortedByThreadIDThroughHTTPAndBackToTheForumsOrder() async throws {
    try await withForum { server, client throws in
      _ = try await client.logIn()
      let page = "/bookmarkthreads.php?action=view&perpage=40&pagenumber=1"
      // The demo seed's bookmarks, newest last post first: Québec (minute 3600), the dev thread (3478), the desk
      // (900), the closed thread (60).
      let forumOrder = Self.rowIDs(try await client.get(page).text)
      #expect(forumOrder == [3_600_002, 3_600_001, 3_600_003, 3_600_004])

      let set = try await client.admin.send(
        "POST", "/_fake/bookmarks/order", json: #"{"user": "awfulbot", "order": "threadID"}"#)
      #expect(set.status == 200)
      #expect(Self.rowIDs(try await client.get(page).text) == [3_600_001, 3_600_002, 3_600_003, 3_600_004])

      try await server.state.setBookmarkOrder(user: FakeForumSeed.botUserID, .lastPost)
      #expect(Self.rowIDs(try await client.get(page).text) == forumOrder)
      let unknown = try await client.admin.send(
        "POST", "/_fake/bookmarks/order", json: #"{"user": "awfulbot", "order": "random"}"#)
      #expect(unknown.status == 404)
    }
  }

  @Test func deletingAPostMovesLaterPostsUpAndTheLastPostBack() async throws {
    try await withForum { server, client throws in
      let state = server.state
      let start = Date(timeIntervalSince1970: 1_700_000_040)
      let thread = try await state.addThread(forum: 273, title: "Deletions", author: 1002, body: "one", date: start)
      let two = try await state.addPost(thread: thread, author: 1003, body: "two", date: start.addingTimeInterval(60))
      let three = try await state.addPost(
        thread: thread, author: 1002, body: "three", date: start.addingTimeInterval(120))
      let four = try await state.addPost(
        thread: thread, author: 1005, body: "four", date: start.addingTimeInterval(180))

      // A post in the middle: the later ones move up; the last post stays.
      try await state.deletePost(two)
      #expect(await state.post(two) == nil)
      #expect(await state.post(three)?.index == 2)
      #expect(await state.post(four)?.index == 3)
      #expect(await state.thread(thread)?.lastPostDate == start.addingTimeInterval(180))

      // The last post, through HTTP: the thread's last post goes back to the one before, and its author.
      let reply = try await client.admin.send("DELETE", "/_fake/posts/\(four)")
      #expect(reply.status == 200)
      let after = try #require(await state.thread(thread))
      #expect(after.postCount == 2 && after.replyCount == 1)
      #expect(after.lastPostDate == start.addingTimeInterval(120) && after.lastPostAuthorID == 1002)
      // The next post takes the freed index.
      let five = try await state.addPost(thread: thread, author: 1003, body: "five")
      #expect(await state.post(five)?.index == 3)

      // A synthetic post cannot be deleted.
      let generated = try #require(
        try await state.addGeneratedThreads(count: 1, forum: 273, author: 1002, postsPerThread: 2).first)
      let synthetic = try #require(await state.thread(generated)).generatedPostBaseID + 1
      #expect(try await client.admin.send("DELETE", "/_fake/posts/\(synthetic)").status == 404)
    }
  }
}
