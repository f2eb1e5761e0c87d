import FakeForum
import ForumsClient
import Foundation

extension ForumsClientConfiguration {
  /// The client tuned for tests against the forum emulator as the seeded bot account: no request spacing (spacing
  /// has its own test), quick retries of 5xx, timeouts that fail fast. The emulator's GBS is forum 273, where it
  /// lists the announcements.
  package static func test(baseURL: URL) -> ForumsClientConfiguration {
    ForumsClientConfiguration(
      baseURL: baseURL,
      credentials: ForumCredentials(username: FakeForumSeed.botUsername, password: FakeForumSeed.botPassword),
      minimumRequestSpacing: .zero, connectTimeout: .seconds(5), requestTimeout: .seconds(20),
      retry: RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(10), maximumDelay: .milliseconds(40)),
      announcementsForumID: "273")
  }
}
