import FakeForum
import ForumModel
import Foundation
import Testing

@testable import ForumsClient

@Suite("Login and session", .serialized)
struct SessionTests {
  @Test func logsInAndLandsOnTheForumIndex() async throws {
    try await withFakeForum { forum in
      let index = try await forum.client.logIn()
      #expect(index.user?.name == FakeForumSeed.botUsername)
      #expect(index.groups.map(\.id).contains("48"))
      #expect(await forum.client.hasSession())

      let login = try #require(await forum.requests(to: "/account.php").first)
      #expect(login.method == "POST")
      #expect(login.queryValue("json") == "1")
      #expect(login.formValue("action") == "login")
      #expect(login.formValue("username") == FakeForumSeed.botUsername)
      #expect(login.formValue("next") == "/index.php?json=1")
      // The redirect to the index was followed with the new session cookies.
      let landing = try #require(await forum.requests(to: "/index.php").first)
      #expect(landing.queryValue("json") == "1")
      #expect(landing.cookieNames.contains("bbuserid"))
      #expect(landing.cookieNames.contains("sessionhash"))
    }
  }

  @Test func wrongPasswordIsBadCredentialsAndLeavesNoSession() async throws {
    try await withFakeForum(configure: { $0.credentials.password = "wrong" }) { forum in
      let error = await clientError { try await forum.client.logIn() }
      #expect(error == .badCredentials)
      #expect(await !forum.client.hasSession())
      // The same answer when a call needs the session.
      #expect(await clientError { _ = try await forum.client.bookmarks(page: 1) } == .badCredentials)
    }
  }

  @Test func firstCallLogsInByItself() async throws {
    try await withFakeForum { forum in
      let page = try await forum.client.bookmarks(page: 1)
      #expect(page.threads.count == 4)
      let paths = await forum.state.requests().map(\.path)
      #expect(paths == ["/account.php", "/index.php", "/bookmarkthreads.php"])
    }
  }

  @Test func logsInAgainAfterTheForumForgetsTheSession() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.invalidateSessions()
      let page = try await forum.client.threadPage(threadID: "3600002", page: .number(1))
      #expect(page.threadID == "3600002")
      #expect(await forum.requests(to: "/account.php").count == 2)
      // The first thread request got the logged-out page, the second the thread.
      #expect(await forum.requests(to: "/showthread.php").count == 2)
    }
  }

  @Test func whenLoggingInAgainFailsTheErrorSaysSo() async throws {
    try await withFakeForum { forum in
      // A session made with the right password, then used by a client whose password no longer works.
      try await forum.client.logIn()
      let stale = forum.makeClient(
        password: "changed", cookieStore: InMemoryCookieStore(try await forum.cookieStore.load()))
      _ = try await stale.bookmarks(page: 1)
      await forum.state.invalidateSessions()
      let error = await clientError { _ = try await stale.bookmarks(page: 1) }
      try await stale.shutdown()
      #expect(error == .badCredentials)
    }
  }

  @Test func concurrentCallsShareOneLogin() async throws {
    try await withFakeForum { forum in
      let client = forum.client
      async let first = client.bookmarks(page: 1)
      async let second = client.threads(forumID: "46", page: 1)
      async let third = client.forumIndex()
      _ = try await (first, second, third)
      #expect(await forum.requests(to: "/account.php").count == 1)
    }
  }

  @Test func aStoredSessionIsReusedWithoutLoggingIn() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      let saved = try await forum.cookieStore.load()
      #expect(saved.contains { $0.name == "bbuserid" })
      let second = forum.makeClient(cookieStore: InMemoryCookieStore(saved))
      _ = try await second.bookmarks(page: 1)
      try await second.shutdown()
      #expect(await forum.requests(to: "/account.php").count == 1)
    }
  }

  @Test func logOutForgetsTheCookies() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.client.logOut()
      #expect(await !forum.client.hasSession())
      #expect(try await forum.cookieStore.load().isEmpty)
    }
  }

  @Test func aBannedAccountCannotLogIn() async throws {
    try await withFakeForum { forum in
      try await forum.state.setBanned(user: FakeForumSeed.botUserID, true)
      let error = await clientError { try await forum.client.logIn() }
      guard case .banned = error else {
        Issue.record("expected .banned, got \(String(describing: error))")
        return
      }
      // Like the forum's own client: a login that did not land on the index keeps no cookies.
      #expect(await !forum.client.hasSession())
    }
  }
}
