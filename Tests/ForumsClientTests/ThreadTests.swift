import FakeForum
import ForumModel
import Foundation
import Testing

@testable import ForumsClient

/// The demo seed's long thread: 95 posts, so pages of 40, 40 and 15.
private let longThread = "3600001"

@Suite("Threads and posts", .serialized)
struct ThreadTests {
  @Test func postsAfterAnIndexCrossAPageBoundary() async throws {
    try await withFakeForum { forum in
      let result = try await forum.client.posts(threadID: longThread, after: 38)
      #expect(result.posts.map(\.index) == Array(39...95))
      #expect(result.pagesFetched == 3)
      #expect(result.threadID == longThread)
      #expect(result.threadTitle.hasPrefix("AwfulBot development thread"))
      let pages = await forum.requests(to: "/showthread.php").map { $0.queryValue("pagenumber") }
      #expect(pages == ["1", "2", "3"])
    }
  }

  @Test func startsOnThePageHoldingTheNextPost() async throws {
    try await withFakeForum { forum in
      // Index 40 is the last post of page 1: the next one is on page 2.
      let result = try await forum.client.posts(threadID: longThread, after: 40)
      #expect(result.posts.first?.index == 41)
      #expect(result.posts.count == 55)
      #expect(result.pagesFetched == 2)
    }
  }

  @Test func nothingNewIsOneRequestAndNoPosts() async throws {
    try await withFakeForum { forum in
      let result = try await forum.client.posts(threadID: longThread, after: 95)
      #expect(result.posts.isEmpty)
      #expect(result.pagesFetched == 1)
    }
  }

  @Test func aThreadShorterThanExpectedEndsCleanly() async throws {
    try await withFakeForum { forum in
      // Page 6 does not exist: the forum answers with the last page, whose posts are all older.
      let result = try await forum.client.posts(threadID: longThread, after: 200)
      #expect(result.posts.isEmpty)
      #expect(result.pagesFetched == 1)
    }
  }

  @Test func fromTheStartReadsEverything() async throws {
    try await withFakeForum { forum in
      let result = try await forum.client.posts(threadID: "3600002", after: 0)
      #expect(result.posts.map(\.index) == [1, 2, 3, 4])
    }
  }

  @Test func newPostsShowUpAfterTheCursor() async throws {
    try await withFakeForum { forum in
      let before = try await forum.client.posts(threadID: "3600002", after: 4)
      #expect(before.posts.isEmpty)
      let id = try await forum.state.addPost(thread: 3_600_002, author: 1002, body: "Une nouvelle réponse")
      let after = try await forum.client.posts(threadID: "3600002", after: 4)
      #expect(after.posts.map(\.id) == [String(id)])
      let text = plainText(after.posts[0].body)
      #expect(text.contains("Une nouvelle réponse"))
    }
  }

  @Test func threadPagesAreLoadedWithNoseenAndLeaveReadMarkers() async throws {
    try await withFakeForum { forum in
      _ = try await forum.client.threadPage(threadID: longThread, page: .number(2))
      _ = try await forum.client.posts(threadID: longThread, after: 60)
      let loads = await forum.requests(to: "/showthread.php")
      #expect(!loads.isEmpty)
      #expect(loads.allSatisfy { $0.queryValue("noseen") == "1" && $0.queryValue("perpage") == "40" })
      #expect(await forum.state.lastRead(user: FakeForumSeed.botUserID, thread: 3_600_001) == 50)
    }
  }

  @Test func readSyncLeavesOutNoseen() async throws {
    try await withFakeForum(configure: { $0.updatesReadMarkers = true }) { forum in
      _ = try await forum.client.threadPage(threadID: longThread, page: .number(2))
      let load = try #require(await forum.requests(to: "/showthread.php").last)
      #expect(load.queryValue("noseen") == nil)
      #expect(await forum.state.lastRead(user: FakeForumSeed.botUserID, thread: 3_600_001) == 80)
    }
  }

  @Test func lastPageFollowsTheRedirectKeepingPerpageAndNoseen() async throws {
    try await withFakeForum { forum in
      let page = try await forum.client.threadPage(threadID: longThread, page: .last)
      #expect(page.page?.current == 3)
      #expect(page.posts.last?.index == 95)
      let loads = await forum.requests(to: "/showthread.php")
      #expect(loads.count == 2)
      #expect(loads[0].queryValue("goto") == "lastpost")
      #expect(loads[1].queryValue("pagenumber") == "3")
      #expect(loads[1].queryValue("perpage") == "40")
      #expect(loads[1].queryValue("noseen") == "1")
      #expect(await forum.state.lastRead(user: FakeForumSeed.botUserID, thread: 3_600_001) == 50)
    }
  }

  @Test func honoursTheForumPageSizeEvenWhenTheAccountUsesAnother() async throws {
    try await withFakeForum { forum in
      try await forum.state.setPostsPerPage(user: FakeForumSeed.botUserID, 10)
      let page = try await forum.client.threadPage(threadID: longThread, page: .last)
      #expect(page.posts.count == 15)
    }
  }

  @Test func locatesAPostFromTheRedirect() async throws {
    try await withFakeForum { forum in
      let first = try await forum.client.posts(threadID: longThread, after: 44)
      let post = try #require(first.posts.first)
      let location = try await forum.client.locatePost(postID: post.id)
      #expect(location == PostLocation(threadID: longThread, page: 2))
      let locates = await forum.requests(to: "/showthread.php").filter { $0.queryValue("goto") == "post" }
      #expect(locates.count == 1)
      // The redirect was read, not followed.
      #expect(await forum.state.requests().last?.queryValue("goto") == "post")
    }
  }

  @Test func locatingAMissingPostIsAnError() async throws {
    try await withFakeForum { forum in
      let error = await clientError { _ = try await forum.client.locatePost(postID: "999999999") }
      guard case .notFound(let notFound) = error else {
        Issue.record("expected .notFound, got \(String(describing: error))")
        return
      }
      #expect(notFound.subject == .post)
      #expect(notFound.message.contains("Invalid post"))
    }
  }

  @Test func marksReadUpToAnIndex() async throws {
    try await withFakeForum { forum in
      try await forum.client.markRead(threadID: longThread, upTo: 77)
      #expect(await forum.state.lastRead(user: FakeForumSeed.botUserID, thread: 3_600_001) == 77)
      let post = try #require(await forum.requests(to: "/showthread.php").last)
      #expect(post.method == "POST")
      #expect(post.formValue("action") == "setseen")
      #expect(post.formValue("index") == "77")
    }
  }

  @Test func readsTheForumIndexAndThreadLists() async throws {
    try await withFakeForum { forum in
      let index = try await forum.client.forumIndex()
      #expect(index.groups.map(\.id) == ["48", "51"])
      let debate = try await forum.client.threads(forumID: "46", page: 1)
      #expect(Set(debate.threads.map(\.id)).isSuperset(of: ["3600002", "3600006"]))
      #expect(debate.forumID == "46")
    }
  }

  @Test func readsAnnouncementsWithTheirTitles() async throws {
    try await withFakeForum { forum in
      let rows = try await forum.client.announcementRows()
      #expect(rows.map(\.title) == ["Welcome to the Fake Forums!"])
      let announcements = try await forum.client.announcements()
      #expect(announcements.count == 1)
      #expect(announcements.first?.title == Optional("Welcome to the Fake Forums!"))
      #expect(announcements.first?.author.name == "angerbot")
      let text = plainText(announcements.first?.body ?? [])
      #expect(text.contains("emulator for tests"))
    }
  }
}
