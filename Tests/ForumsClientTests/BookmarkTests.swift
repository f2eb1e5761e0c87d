import FakeForum
import ForumModel
import Foundation
import Testing

@testable import ForumsClient

@Suite("Bookmarks", .serialized)
struct BookmarkTests {
  @Test func readsOneHundredThirtyBookmarksOverFourPages() async throws {
    try await withFakeForum(seed: .empty) { forum in
      let ids = try await forum.state.addGeneratedThreads(
        count: 130, forum: 273, author: FakeForumSeed.botUserID, postsPerThread: 3,
        bookmarkedBy: FakeForumSeed.botUserID)
      let threads = try await forum.client.allBookmarks()
      #expect(threads.count == 130)
      #expect(Set(threads.map(\.id)) == Set(ids.map(String.init)))

      let pages = await forum.requests(to: "/bookmarkthreads.php")
      #expect(pages.map { $0.queryValue("pagenumber") } == ["1", "2", "3", "4"])
      #expect(pages.allSatisfy { $0.queryValue("perpage") == "40" && $0.queryValue("action") == "view" })
    }
  }

  @Test func stopsAtAFullLastPage() async throws {
    try await withFakeForum(seed: .empty) { forum in
      try await forum.state.addGeneratedThreads(
        count: 80, forum: 273, author: FakeForumSeed.botUserID, bookmarkedBy: FakeForumSeed.botUserID)
      #expect(try await forum.client.allBookmarks().count == 80)
      // Page 2 is full but the page navigation says it is the last one.
      #expect(await forum.requests(to: "/bookmarkthreads.php").count == 2)
    }
  }

  @Test func readsStarColours() async throws {
    try await withFakeForum { forum in
      let page = try await forum.client.bookmarks(page: 1)
      let stars = Dictionary(uniqueKeysWithValues: page.threads.map { ($0.id, $0.star) })
      #expect(stars["3600001"] == .orange)
      #expect(stars["3600002"] == .red)
    }
  }

  @Test func addsWithAStarAndRemoves() async throws {
    try await withFakeForum { forum in
      try await forum.client.addBookmark(threadID: "3600005", star: .green)
      #expect(await forum.state.bookmarks(user: FakeForumSeed.botUserID)[3_600_005] == .green)
      let listed = try await forum.client.bookmarks(page: 1).threads.first { $0.id == "3600005" }
      #expect(listed?.star == .green)

      let posts = await forum.requests(to: "/bookmarkthreads.php").filter { $0.method == "POST" }
      #expect(posts.count == 2)
      #expect(posts[0].formValue("action") == "add")
      #expect(posts[0].formValue("json") == "1")
      #expect(posts[0].formValue("threadid") == "3600005")
      #expect(posts[0].formValue("category_id") == nil)
      #expect(posts[1].formValue("category_id") == "4")

      try await forum.client.removeBookmark(threadID: "3600005")
      #expect(await forum.state.bookmarks(user: FakeForumSeed.botUserID)[3_600_005] == nil)
      #expect(try await forum.client.bookmarks(page: 1).threads.contains { $0.id == "3600005" } == false)
    }
  }

  @Test func addsWithoutAStarInOneRequest() async throws {
    try await withFakeForum { forum in
      try await forum.client.addBookmark(threadID: "3600006", star: nil)
      #expect(await forum.state.bookmarks(user: FakeForumSeed.botUserID)[3_600_006] != nil)
      #expect(await forum.requests(to: "/bookmarkthreads.php").filter { $0.method == "POST" }.count == 1)
    }
  }
}
