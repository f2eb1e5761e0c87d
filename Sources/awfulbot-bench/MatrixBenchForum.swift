import FakeForum
import Foundation

/// The forum emulator on 127.0.0.1 with one thread the bot has bookmarked and a poster writing in it.
struct MatrixBenchForum: Sendable {
  let server: FakeForumServer
  let url: URL
  let thread: Int
  let poster: Int

  static func start() async throws -> MatrixBenchForum {
    let server = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .empty))
    let root = try await server.start()
    let state = server.state
    let poster = try await state.addUser(name: "Bench Poster", password: "bench")
    let group = try await state.addGroup(title: "Main")
    let forum = try await state.addForum(title: "Benchmarks", parent: group)
    let threads = try await state.addGeneratedThreads(
      count: 1, forum: forum, author: poster, titlePrefix: "Matrix benchmark", bookmarkedBy: FakeForumSeed.botUserID)
    return MatrixBenchForum(server: server, url: root.appendingPathComponent(""), thread: threads[0], poster: poster)
  }

  func addPost(_ body: String) async throws {
    try await server.state.addPost(thread: thread, author: poster, body: body)
  }

  func stop() async { await server.stop() }
}
