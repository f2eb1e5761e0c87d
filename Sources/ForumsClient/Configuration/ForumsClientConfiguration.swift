import Foundation

/// Everything that tunes how the client talks to the forum.
package struct ForumsClientConfiguration: Sendable {
  package static let defaultBaseURL = URL(string: "https://forums.somethingawful.com/")!

  /// Every endpoint is resolved against this (must end with `/`).
  package var baseURL: URL
  package var credentials: ForumCredentials
  /// The zone the forum prints its times in; passed to the scrapers.
  package var timeZone: TimeZone
  /// Minimum time between the starts of two requests (politeness; 0 in tests).
  package var minimumRequestSpacing: Duration
  package var connectTimeout: Duration
  /// Limit for a whole exchange: connecting, sending, and reading the complete body.
  package var requestTimeout: Duration
  /// Bodies larger than this are refused with `ForumsClientError.bodyTooLarge`.
  package var maximumBodySize: Int
  package var retry: RetryPolicy
  package var userAgent: String
  /// Cookies the operator got in a browser (Cloudflare's `cf_clearance`, valid with that browser's `userAgent`):
  /// sent with every request under names the forum does not set itself, never stored with the session, never logged.
  package var extraCookies: [String: String] = [:]
  /// When false (the default) thread pages are loaded with `noseen=1`, so the bot never moves the account's
  /// read markers; the operator may turn read sync on.
  package var updatesReadMarkers: Bool
  /// Redirects followed per request before giving up.
  package var maximumRedirects: Int
  /// The forum whose thread list supplies the announcement rows (any forum lists them; 1 is GBS).
  package var announcementsForumID: String
  /// A page a wall answered longer ago than this, while the forum answers other pages, no longer holds the wall up:
  /// nothing may ask that page again for a long time (one only a command reads).
  package var wallSightingLifetime: Duration = .seconds(300)

  package init(
    baseURL: URL = Self.defaultBaseURL,
    credentials: ForumCredentials,
    timeZone: TimeZone = TimeZone(identifier: "America/Chicago")!,
    minimumRequestSpacing: Duration = .seconds(1),
    connectTimeout: Duration = .seconds(10),
    requestTimeout: Duration = .seconds(60),
    maximumBodySize: Int = 8 << 20,
    retry: RetryPolicy = RetryPolicy(),
    userAgent: String = AwfulBotVersion.userAgent,
    updatesReadMarkers: Bool = false,
    maximumRedirects: Int = 10,
    announcementsForumID: String = "1"
  ) {
    self.baseURL = baseURL
    self.credentials = credentials
    self.timeZone = timeZone
    self.minimumRequestSpacing = minimumRequestSpacing
    self.connectTimeout = connectTimeout
    self.requestTimeout = requestTimeout
    self.maximumBodySize = maximumBodySize
    self.retry = retry
    self.userAgent = userAgent
    self.updatesReadMarkers = updatesReadMarkers
    self.maximumRedirects = maximumRedirects
    self.announcementsForumID = announcementsForumID
  }
}
