import FakeForum
import Foundation

/// Errors of the `fake-forum` subcommand's arguments.
package struct FakeForumCommandError: Error, CustomStringConvertible {
  package var description: String
}

/// The `fake-forum` subcommand: serves the emulated forum until cancelled (Ctrl-C), printing where it listens
/// and the bot account to log in with.
package func runFakeForum(port: Int, seed: String, pageNav: String) async throws {
  guard let seedValue = FakeForumSeed(rawValue: seed) else {
    throw FakeForumCommandError(
      description:
        "Unknown seed '\(seed)'; use one of: \(FakeForumSeed.allCases.map(\.rawValue).joined(separator: ", ")).")
  }
  guard let navStyle = PageNavStyle(rawValue: pageNav) else {
    throw FakeForumCommandError(
      description:
        "Unknown page navigation '\(pageNav)'; use one of: \(PageNavStyle.allCases.map(\.rawValue).joined(separator: ", "))."
    )
  }
  guard (0...65_535).contains(port) else {
    throw FakeForumCommandError(description: "Port \(port) is out of range (0…65535; 0 picks a free port).")
  }
  let server = try await FakeForumServer(
    configuration: FakeForumConfiguration(port: port, seed: seedValue, pageNav: navStyle))
  try await withThrowingTaskGroup(of: Void.self) { group in
    group.addTask { try await server.run() }
    let url = try await server.waitForBaseURL()
    print("FakeForum listening on \(url.absoluteString)")
    print("Bot login: username \(FakeForumSeed.botUsername), password \(FakeForumSeed.botPassword)")
    print("Admin API: \(url.absoluteString)/_fake/ (see docs/fake-forum.md). Press Ctrl-C to stop.")
    try await group.waitForAll()
  }
}
