import AwfulBotTestKit
import Foundation
import Testing

@testable import FakeForum

@Suite("FakeForum admin API")
struct AdminAPITests {
  func json(_ reply: ForumTestClient.Reply) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(reply.body))
  }

  @Test func addThreadAndPostThroughTheKitsClient() async throws {
    try await withForum { server, client throws in
      let (threadID, firstPostID) = try await client.admin.addThread(
        forum: 273, title: "Kit thread", author: "Pickled Tink", body: "first")
      let postID = try await client.admin.addPost(thread: threadID, author: "Pickled Tink", body: "second")
      #expect(await server.state.thread(threadID)?.title == "Kit thread")
      #expect(await server.state.post(firstPostID)?.index == 1)
      #expect(await server.state.post(postID)?.body == .bbcode("second"))
      // A refusal is an error naming the endpoint, the status and the forum's reason.
      let error = try await #require(throws: FakeForumAdminClient.AdminError.self) {
        try await client.admin.addPost(thread: threadID, author: "nobody", body: "x")
      }
      #expect(error.status == 404 && error.body.contains("no user nobody"))
    }
  }

  @Test func addThreadAndPostThroughHTTP() async throws {
    try await withForum { server, client throws in
      let thread = try await client.admin.send(
        "POST", "/_fake/threads",
        json: #"{"forum": 273, "title": "Admin thread ✨", "author": "Pickled Tink", "body": "first"}"#)
      #expect(thread.status == 200)
      let threadID = try #require((try thread.json() as? [String: Int])?["threadID"])
      let post = try await client.admin.send(
        "POST", "/_fake/posts", json: #"{"thread": \#(threadID), "author": 1003, "body": "second 🎈"}"#)
      let postID = try #require((try post.json() as? [String: Int])?["postID"])
      let stored = try #require(await server.state.post(postID))
      #expect(stored.body == .bbcode("second 🎈"))
      #expect(stored.index == 2)
      #expect(await server.state.thread(threadID)?.title == "Admin thread ✨")
      // Admin requests are not in the forum's request log.
      #expect(await server.state.requests().isEmpty)
    }
  }

  @Test func unknownAuthorIsAnError() async throws {
    try await withForum { _, client throws in
      let reply = try await client.admin.send(
        "POST", "/_fake/posts", json: #"{"thread": 3600001, "author": "nobody", "body": "x"}"#)
      #expect(reply.status == 404)
      #expect(reply.text.contains("no user nobody"))
    }
  }

  @Test func faultsRequestsAndResetThroughHTTP() async throws {
    try await withForum { server, client throws in
      let set = try await client.admin.send("POST", "/_fake/faults", json: #"{"kind": "serverError", "count": 1}"#)
      #expect(set.status == 200)
      #expect(try await client.get("/index.php?json=1").status == 500)
      #expect(try await client.get("/index.php?json=1").status == 200)

      let requests = try await client.get("/_fake/requests")
      let list = try #require(try json(requests) as? [[String: Any]])
      #expect(list.count == 2)
      #expect(list.first?["path"] as? String == "/index.php")

      _ = try await client.admin.send("POST", "/_fake/faults", json: #"{"kind": "probation"}"#)
      #expect(await server.state.faults() == [.probation])
      _ = try await client.admin.send("DELETE", "/_fake/faults/probation", json: nil)
      #expect(await server.state.faults().isEmpty)

      _ = try await client.admin.send(
        "POST", "/_fake/announcements", json: #"{"title": "New!", "author": "angerbot", "body": "b"}"#)
      let reset = try await client.admin.send("POST", "/_fake/reset", json: #"{"seed": "empty"}"#)
      #expect(reset.status == 200)
      let state = try #require(try json(try await client.get("/_fake/state")) as? [String: Any])
      #expect(state["threadCount"] as? Int == 0)
      #expect(state["announcementCount"] as? Int == 0)
      #expect(await server.state.requests().isEmpty)
    }
  }

  @Test func logoutFaultThroughHTTPInvalidatesSessions() async throws {
    try await withForum { _, client throws in
      _ = try await client.logIn()
      _ = try await client.admin.send("POST", "/_fake/faults", json: #"{"kind": "logout"}"#)
      let page = try await client.get("/bookmarkthreads.php?action=view")
      #expect(page.text.contains("must be a registered forums member"))
    }
  }
}
