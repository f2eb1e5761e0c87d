import Foundation
import Testing

@testable import FakeForum

@Suite("FakeForum login and sessions")
struct LoginTests {
  @Test func loginSetsCookiesAndRedirectsToNext() async throws {
    try await withForum { _, client throws in
      let reply = try await client.logIn()
      #expect(reply.status == 302)
      #expect(reply.header("Location") == client.baseURL.absoluteString + "/index.php?json=1")
      let cookieNames = Set(reply.headers("Set-Cookie").compactMap { $0.split(separator: "=").first.map(String.init) })
      #expect(cookieNames == ["bbuserid", "bbpassword", "sessionhash"])
      #expect(client.cookies["bbuserid"] == "\(FakeForumSeed.botUserID)")
      // The password never appears in a cookie.
      #expect(!reply.headers("Set-Cookie").contains { $0.contains(FakeForumSeed.botPassword) })

      let index = try await client.get("/index.php?json=1")
      #expect(index.status == 200)
      #expect(index.contentType?.hasPrefix("application/json") == true)
      let json = try #require(try JSONSerialization.jsonObject(with: Data(index.body)) as? [String: Any])
      let user = try #require(json["user"] as? [String: Any])
      #expect(user["username"] as? String == "awfulbot")
      #expect(user["userid"] as? Int == FakeForumSeed.botUserID)
      let groups = try #require(json["forums"] as? [[String: Any]])
      #expect(groups.map { $0["title"] as? String } == ["Main", "Discussion"])
      #expect(groups.allSatisfy { $0["has_threads"] as? Bool == false })
    }
  }

  @Test func badPasswordGetsTheStandardErrorPage() async throws {
    try await withForum { _, client throws in
      let reply = try await client.logIn(password: "wrong")
      #expect(reply.status == 200)
      #expect(reply.contentType == "text/html; charset=windows-1252")
      #expect(reply.text.contains("class=\"standarderror\""))
      #expect(client.cookies["bbuserid"] == nil)
    }
  }

  @Test func loggedOutPagesGetMustRegisterAndClearTheCookie() async throws {
    try await withForum { _, client throws in
      client.setCookie("bbuserid", "1001")
      let reply = try await client.get("/bookmarkthreads.php?action=view&perpage=40&pagenumber=1")
      #expect(reply.status == 200)
      #expect(reply.text.contains("must be a registered forums member"))
      #expect(reply.text.contains("class=\"standarderror\""))
      #expect(reply.headers("Set-Cookie").contains { $0.hasPrefix("bbuserid=deleted") })
      #expect(client.cookies["bbuserid"] == nil)
    }
  }

  @Test func forcedLogoutInvalidatesSessions() async throws {
    try await withForum { server, client throws in
      _ = try await client.logIn()
      #expect(try await client.get("/bookmarkthreads.php?action=view").text.contains("name=\"bookmarks\""))
      await server.state.invalidateSessions()
      let reply = try await client.get("/bookmarkthreads.php?action=view")
      #expect(reply.text.contains("must be a registered forums member"))
      #expect(client.cookies["bbuserid"] == nil)
    }
  }

  @Test func bannedAccountCanLogInButGetsTheBannedPage() async throws {
    try await withForum { server, client throws in
      try await server.state.setBanned(user: FakeForumSeed.botUserID, true)
      let login = try await client.logIn()
      #expect(login.status == 302)
      let index = try await client.get("/index.php?json=1")
      #expect(index.text.contains("class=\"banned\""))
      #expect(index.text.contains("banlist.php?userid="))
    }
  }
}
