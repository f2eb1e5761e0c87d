import AwfulBotApp
import FakeForum
import Foundation

extension AppConfiguration.ForumSettings {
  /// The forum section for the emulator at `baseURL` as its seeded bot account, in the forum's own time zone, with
  /// the spacing a test can afford; the emulator lists its announcements in GBS (273).
  package static func emulator(
    _ baseURL: URL, requestSpacingSeconds: Double = 0.01, requestTimeoutSeconds: Double? = nil,
    announcementsForumID: String? = "273"
  ) -> Self {
    .init(
      baseURL: baseURL, username: FakeForumSeed.botUsername,
      password: SecretValue(literal: FakeForumSeed.botPassword), timeZone: TimeZone(identifier: "America/Chicago"),
      requestSpacingSeconds: requestSpacingSeconds, requestTimeoutSeconds: requestTimeoutSeconds,
      announcementsForumID: announcementsForumID)
  }
}
