import AwfulBotTestKit
import FakeForum
import ForumModel
import Foundation
import Testing

@testable import ForumsClient

/// The forum's search read over loopback from the emulator: what a search and a page of results cost in requests
/// (the emulator's log), what comes back, and the forum's refusals.
@Suite("Search", .serialized)
struct SearchTests {
  static let bot = FakeForumSeed.botUserID

  /// A thread in GBS (273) with `count` posts saying "zebra crossing", a minute apart, and one in D&D (46).
  static func addPosts(_ state: ForumState, count: Int) async throws -> (gbs: Int, debate: Int) {
    let start = Date(timeIntervalSince1970: 1_749_999_960)
    let gbs = try await state.addThread(
      forum: 273, title: "Zebra <crossings> & you", author: 1002, body: "the first zebra crossing", date: start)
    for index in 2...count {
      _ = try await state.addPost(
        thread: gbs, author: 1003, body: "zebra crossing number \(index) [b]bold[/b] @room",
        date: start.addingTimeInterval(Double(index) * 60))
    }
    let debate = try await state.addThread(
      forum: 46, title: "Debating zebras", author: 1002, body: "is a zebra crossing a debate", date: start)
    return (gbs, debate)
  }

  @Test func aSearchIsTheForumsTwoRequestsAndAPageOneMore() async throws {
    try await withFakeForum { forum in
      try await forum.state.setPlatinum(user: Self.bot, true)
      await forum.state.setSearchSettings(floodSeconds: nil, perPage: 4)
      _ = try await Self.addPosts(forum.state, count: 6)
      try await forum.client.logIn()
      await forum.state.clearRequests()

      let first = try await forum.client.search(query: "Zebra crossing", forumIDs: [])
      let requests = await forum.state.requests()
      #expect(requests.map { "\($0.method) \($0.path)" } == ["POST /query.php", "GET /query.php"])
      #expect(requests.first?.form.contains(LoggedRequest.Field(name: "q", value: "Zebra crossing")) == true)
      #expect(requests.first?.form.contains(LoggedRequest.Field(name: "action", value: "query")) == true)
      #expect(requests.last?.query.contains(LoggedRequest.Field(name: "action", value: "results")) == true)
      #expect(first.totalResults == 7)
      #expect(first.navigation == PageNavigation(current: 1, total: 2))
      #expect(first.results.count == 4)
      let qid = try #require(first.queryID)
      #expect(first.results.map(\.number) == [1, 2, 3, 4])
      let newest = try #require(first.results.first)
      #expect(newest.threadTitle == "Zebra <crossings> & you")
      #expect(newest.forumTitle == "General Bullshit" && newest.forumID == "273")
      #expect(newest.author?.name == "Zoë Québec")
      #expect(newest.date == Date(timeIntervalSince1970: 1_749_999_960 + 360))
      #expect(plainText(newest.snippet) == "zebra crossing number 6 bold @room")
      #expect(newest.snippet.contains(.italic([.text("zebra")])))

      await forum.state.clearRequests()
      let second = try await forum.client.searchResults(queryID: qid, page: 2)
      #expect(await forum.state.requests().map { "\($0.method) \($0.path)" } == ["GET /query.php"])
      #expect(second.navigation == PageNavigation(current: 2, total: 2))
      #expect(second.results.map(\.number) == [5, 6, 7])
      #expect(Set(first.results.map(\.postID)).isDisjoint(with: second.results.map(\.postID)))
    }
  }

  @Test func oneThreadAndOneForum() async throws {
    try await withFakeForum { forum in
      try await forum.state.setPlatinum(user: Self.bot, true)
      let (gbs, debate) = try await Self.addPosts(forum.state, count: 3)
      let inThread = try await forum.client.search(query: "threadid:\(debate) zebra", forumIDs: [])
      #expect(inThread.results.map(\.threadID) == ["\(debate)"])
      let inForum = try await forum.client.search(query: "zebra", forumIDs: ["273"])
      #expect(inForum.results.count == 3 && inForum.results.allSatisfy { $0.threadID == "\(gbs)" })
      #expect(inForum.navigation == nil && inForum.totalResults == 3)
      // Words in UTF-8, as the form says it takes them.
      _ = try await forum.state.addPost(thread: gbs, author: 1002, body: "Ça marche, Привет")
      #expect(try await forum.client.search(query: "привет", forumIDs: []).results.count == 1)
    }
  }

  @Test func nothingFoundIsAnEmptyPage() async throws {
    try await withFakeForum { forum in
      try await forum.state.setPlatinum(user: Self.bot, true)
      let page = try await forum.client.search(query: "qwertyuiop", forumIDs: [])
      #expect(page.results.isEmpty)
      #expect(page.info.contains("There were no results"))
    }
  }

  @Test func withoutPlatinumTheForumsSentence() async throws {
    try await withFakeForum { forum in
      try await forum.state.setPlatinum(user: Self.bot, false)
      try await forum.client.logIn()
      await forum.state.clearRequests()
      await #expect {
        _ = try await forum.client.search(query: "zebra", forumIDs: [])
      } throws: { error in
        guard let refusal = error as? SearchRefusal, refusal.reason == .requiresPlatinum else { return false }
        return refusal.message.contains("only accessible to Platinum members")
      }
      #expect(await forum.state.requests().count == 1, "the POST only: refused, not repeated")
    }
  }

  @Test func searchingTooSoonIsTheForumsLimit() async throws {
    try await withFakeForum { forum in
      try await forum.state.setPlatinum(user: Self.bot, true)
      await forum.state.setSearchSettings(floodSeconds: 30, perPage: nil)
      _ = try await forum.client.search(query: "zebra", forumIDs: [])
      await #expect {
        _ = try await forum.client.search(query: "zebra", forumIDs: [])
      } throws: { error in
        guard let refusal = error as? SearchRefusal, case .tooSoon(let wait?) = refusal.reason else { return false }
        return (1...30).contains(wait) && refusal.message.contains("between searches")
      }
    }
  }

  @Test func anExpiredSessionLogsInAgainAndSearchesOnce() async throws {
    try await withFakeForum { forum in
      try await forum.state.setPlatinum(user: Self.bot, true)
      _ = try await Self.addPosts(forum.state, count: 2)
      try await forum.client.logIn()
      await forum.state.invalidateSessions()
      await forum.state.clearRequests()
      let page = try await forum.client.search(query: "zebra", forumIDs: [])
      #expect(page.results.count == 3)
      let paths = await forum.state.requests().map { "\($0.method) \($0.path)" }
      // The refused POST, the login (and the page it lands on), then the search again: POST and results.
      #expect(
        paths == ["POST /query.php", "POST /account.php", "GET /index.php", "POST /query.php", "GET /query.php"],
        "\(paths)")
    }
  }

  @Test func aResultsPageOfAnotherAccountIsRefused() async throws {
    try await withFakeForum { forum in
      try await forum.state.setPlatinum(user: Self.bot, true)
      await #expect(throws: ForumsClientError.self) {
        _ = try await forum.client.searchResults(queryID: "1", page: 1)
      }
    }
  }
}
