import Foundation
import Testing

@testable import FakeForum

@Suite("FakeForum faults and request log")
struct FaultAndLogTests {
  @Test func serverErrorsForTheNextNRequests() async throws {
    try await withForum { server, client throws in
      _ = try await client.logIn()
      await server.state.setFault(.serverError(count: 2))
      #expect(try await client.get("/bookmarkthreads.php?action=view").status == 500)
      #expect(try await client.get("/bookmarkthreads.php?action=view").status == 500)
      #expect(try await client.get("/bookmarkthreads.php?action=view").status == 200)
      #expect(await server.state.faults().isEmpty)
    }
  }

  @Test func serverErrorsUntilCleared() async throws {
    try await withForum { server, client throws in
      await server.state.setFault(.serverError(count: nil))
      for _ in 0..<3 { #expect(try await client.get("/index.php?json=1").status == 500) }
      await server.state.clearFault(.serverError)
      #expect(try await client.get("/index.php?json=1").status == 200)
    }
  }

  @Test func databaseUnavailableBannedProbationAndTruncation() async throws {
    try await withForum { server, client throws in
      _ = try await client.logIn()
      let path = "/showthread.php?threadid=3600003&noseen=1"
      let normal = try await client.get(path)

      await server.state.setFault(.databaseUnavailable)
      #expect(try await client.get(path).text.contains("class=\"database_error\""))
      await server.state.clearFaults()

      await server.state.setFault(.banned)
      #expect(try await client.get(path).text.contains("class=\"banned\""))
      await server.state.clearFaults()

      await server.state.setFault(.probation)
      #expect(try await client.get(path).text.contains("<div id=\"probation_warn\">"))
      await server.state.clearFaults()

      await server.state.setFault(.truncatedHTML)
      let cut = try await client.get(path)
      #expect(cut.body.count == normal.body.count / 2)
      #expect(!cut.text.contains("</html>"))
    }
  }

  @Test func delayedResponsesStillAnswer() async throws {
    try await withForum { server, client throws in
      await server.state.setFault(.delay(milliseconds: 50))
      #expect(await server.state.faults() == [.delay(milliseconds: 50)])
      #expect(try await client.get("/index.php?json=1").status == 200)
    }
  }

  @Test func requestLogKeepsMethodPathQueryFormAndCookieNamesButNoPassword() async throws {
    try await withForum { server, client throws in
      _ = try await client.logIn()
      _ = try await client.get("/showthread.php?threadid=3600001&perpage=40&pagenumber=2&noseen=1")
      let requests = await server.state.requests()
      #expect(requests.count == 2)
      let login = requests[0]
      #expect(login.method == "POST" && login.path == "/account.php")
      #expect(login.queryValue("json") == "1")
      #expect(login.formValue("username") == "awfulbot")
      #expect(login.formValue("password") == "<redacted>")
      #expect(login.cookieNames.isEmpty)
      let page = requests[1]
      #expect(page.queryValue("noseen") == "1")
      #expect(page.cookieNames == ["bbpassword", "bbuserid", "sessionhash"])
      #expect(page.timestamp >= login.timestamp)
      await server.state.clearRequests()
      #expect(await server.state.requests().isEmpty)
    }
  }
}
