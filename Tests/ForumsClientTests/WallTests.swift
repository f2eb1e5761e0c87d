import AwfulBotForumTestKit
import AwfulBotTestKit
import FakeForum
import ForumModel
import Foundation
import Logging
import NIOHTTP1
import Testing

@testable import ForumsClient

/// Walls in front of the forum (issue 35): a Cloudflare challenge, a rate limit, a maintenance page. Each is an error
/// of its own: not retried at once, never a logged-out page (no new login, the session kept), never a page that did
/// not scrape; the client remembers since when and says so once in the log.
@Suite("Walls in front of the forum", .serialized)
struct WallTests {
  @Test(
    "each wall is recognised on the page it stands in front of, not retried, and the session is kept",
    arguments: WallFault.Kind.allCases)
  func recognised(kind: WallFault.Kind) async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.clearRequests()
      await forum.state.setFault(.wall(WallFault(kind: kind, paths: ["/bookmarkthreads.php"], retryAfterSeconds: 90)))
      let error = await clientError { _ = try await forum.client.bookmarks(page: 1) }
      let wall = try #require(error?.wall, "\(String(describing: error))")
      #expect(wall.kind.rawValue == kind.rawValue)
      #expect(wall.retryAfterSeconds == (kind == .challenge ? nil : 90))
      #expect(await forum.requests(to: "/bookmarkthreads.php").count == 1, "a wall is not asked again at once")
      #expect(await forum.requests(to: "/account.php").isEmpty, "a wall is not a logged-out page: no new login")
      #expect(await forum.client.hasSession())
      // Another page is not behind it, and does not lift it either.
      _ = try await forum.client.threadPage(threadID: "3600001", page: .number(1))
      #expect(await forum.client.wall?.wall.kind.rawValue == kind.rawValue)
      await forum.state.clearFault(.wall)
      #expect(try await forum.client.bookmarks(page: 1).threads.count == 4)
      #expect(await forum.client.wall == nil, "the forum answered from its list: the wall lifted")
    }
  }

  @Test("a page the wall answered that nothing asks again stops holding the wall up once the forum answers others")
  func staleSightingLifts() async throws {
    try await withFakeForum(configure: { $0.wallSightingLifetime = .milliseconds(500) }) { forum in
      try await forum.client.logIn()
      await forum.state.setFault(.wall(WallFault(kind: .maintenance, paths: ["/banlist.php"], retryAfterSeconds: 5)))
      _ = await clientError { _ = try await forum.client.lepersColony(page: 1) }
      #expect(await forum.client.wall != nil)
      await forum.state.clearFault(.wall)
      // Soon after, another page answering is no sign the wall in front of the Colony lifted.
      _ = try await forum.client.bookmarks(page: 1)
      #expect(await forum.client.wall != nil)
      try await Task.sleep(for: .milliseconds(600))
      _ = try await forum.client.bookmarks(page: 1)
      #expect(await forum.client.wall == nil, "nothing asked the Colony again: the wall does not stand for ever")
    }
  }

  @Test("a wall is said once in the log when it begins and once when it lifts, with since when")
  func saidOnce() async throws {
    let capture = LogCapture()
    try await withFakeForum { forum in
      let client = ForumsClient(
        configuration: forum.client.configuration, logger: Logger.capturing(into: capture))
      defer { Task { try? await client.shutdown() } }
      try await client.logIn()
      await forum.state.setFault(.wall(WallFault(kind: .challenge)))
      for _ in 1...3 { _ = await clientError { _ = try await client.bookmarks(page: 1) } }
      let sighting = try #require(await client.wall)
      #expect(sighting.since < sighting.lastSeen, "since the first answer of the run, seen again since")
      await forum.state.clearFault(.wall)
      _ = try await client.bookmarks(page: 1)
      #expect(capture.messages.filter { $0 == "the forum is behind a wall" }.count == 1, "\(capture.lines)")
      #expect(capture.messages.filter { $0 == "the wall in front of the forum lifted" }.count == 1)
    }
  }

  @Test("the clearance from a browser: its cookies and User-Agent go with every request, never stored")
  func clearance() async throws {
    try await withFakeForum(configure: {
      $0.extraCookies = ["cf_clearance": "from-the-browser"]
      $0.userAgent = "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0"
    }) { forum in
      try await forum.client.logIn()
      _ = try await forum.client.bookmarks(page: 1)
      let requests = await forum.state.requests()
      #expect(!requests.isEmpty)
      #expect(requests.allSatisfy { $0.cookieNames.contains("cf_clearance") }, "\(requests.map(\.cookieNames))")
      #expect(requests.allSatisfy { $0.userAgent == "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0" })
      let stored = try await forum.cookieStore.load()
      #expect(!stored.isEmpty && !stored.contains { $0.name == "cf_clearance" }, "kept out of the session's store")
    }
  }

  @Test(
    "the forum's own captured pages are never walls, whatever their status",
    .enabled(if: CapturedPages.available, CapturedPages.skipReason))
  func capturedPagesAreNotWalls() throws {
    let url = URL(string: "https://forums.somethingawful.com/bookmarkthreads.php")!
    for name in ["bookmarkthreads.html", "database-unavailable.html", "banned.html", "error-must-register.html"] {
      let body = try Array(CapturedPages.data(name))
      for status in [200, 403, 503] {
        let response = ForumResponse(status: status, headers: HTTPHeaders(), body: body, url: url)
        #expect(WallDetector.wall(in: response) == nil, "\(name) as \(status)")
      }
    }
  }

  @Test("Retry-After in seconds or as a date; a bare 503 is a server error, not a wall")
  func retryAfter() throws {
    let url = URL(string: "https://forums.somethingawful.com/bookmarkthreads.php")!
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    #expect(WallDetector.retryAfterSeconds("120", now: now) == 120)
    #expect(WallDetector.retryAfterSeconds("Fri, 15 Jan 2027 08:02:00 GMT", now: now) == 120)
    #expect(WallDetector.retryAfterSeconds("soon", now: now) == nil)
    let bare = ForumResponse(status: 503, headers: HTTPHeaders(), body: Array("busy".utf8), url: url)
    #expect(WallDetector.wall(in: bare) == nil)
  }
}
