import AwfulBotForumTestKit
import AwfulBotTestKit
import FakeForum
import Foundation
import Logging
import Testing

@testable import ForumsClient

/// A FakeForum on loopback and a client pointed at it, stopped when the test body ends.
struct ForumHarness {
  let server: FakeForumServer
  let client: ForumsClient
  let cookieStore: InMemoryCookieStore

  var state: ForumState { server.state }
  var baseURL: URL { client.baseURL }

  /// A second client of the same forum (same base URL and tuning), with its own credentials or cookie store.
  func makeClient(
    password: String = FakeForumSeed.botPassword, cookieStore: InMemoryCookieStore = InMemoryCookieStore()
  ) -> ForumsClient {
    var configuration = client.configuration
    configuration.credentials = ForumCredentials(username: FakeForumSeed.botUsername, password: password)
    return ForumsClient(configuration: configuration, cookieStore: cookieStore, logger: Logger.quiet())
  }

  /// The forum's request log for one endpoint path (`/showthread.php`).
  func requests(to path: String) async -> [LoggedRequest] {
    await state.requests().filter { $0.path == path }
  }
}

func withFakeForum<T>(
  seed: FakeForumSeed = .demo,
  forum configureForum: (inout FakeForumConfiguration) -> Void = { _ in },
  configure: (inout ForumsClientConfiguration) -> Void = { _ in },
  _ body: (ForumHarness) async throws -> T
) async throws -> T {
  var forumConfiguration = FakeForumConfiguration(port: 0, seed: seed)
  configureForum(&forumConfiguration)
  let server = try await FakeForumServer(configuration: forumConfiguration)
  let root = try await server.start()
  // Endpoints resolve against the base URL, which therefore ends with a slash.
  var configuration = ForumsClientConfiguration.test(baseURL: URL(string: root.absoluteString + "/")!)
  configure(&configuration)
  let store = InMemoryCookieStore()
  let harness = ForumHarness(
    server: server, client: ForumsClient(configuration: configuration, cookieStore: store, logger: Logger.quiet()),
    cookieStore: store)
  do {
    let result = try await body(harness)
    try await harness.client.shutdown()
    await server.stop()
    return result
  } catch {
    try? await harness.client.shutdown()
    await server.stop()
    throw error
  }
}

/// The error a throwing call ends with, as the client's typed error.
func clientError(_ operation: () async throws -> Void) async -> ForumsClientError? {
  do {
    try await operation()
    return nil
  } catch let error as ForumsClientError {
    return error
  } catch {
    Issue.record("expected a ForumsClientError, got \(error)")
    return nil
  }
}
