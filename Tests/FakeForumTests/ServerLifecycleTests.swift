import Foundation
import Testing

@testable import FakeForum

@Suite("FakeForum server lifecycle")
struct ServerLifecycleTests {
  @Test func startingOnABusyPortFailsInsteadOfHanging() async throws {
    try await withForum { server, _ throws in
      let port = try #require(await server.baseURL?.port)
      let second = try await FakeForumServer(configuration: FakeForumConfiguration(port: port, seed: .empty))
      await #expect(throws: (any Error).self) { try await second.start() }
      await second.stop()
    }
  }

  @Test func stopThenStartServesAgain() async throws {
    let server = try await FakeForumServer(configuration: FakeForumConfiguration(seed: .empty))
    try await withStarted(server) { client throws in
      #expect(try await client.get("/index.php?json=1").status == 200)
    }
    #expect(await server.baseURL == nil)
    try await withStarted(server) { client throws in
      #expect(try await client.get("/index.php?json=1").status == 200)
    }
  }
}
