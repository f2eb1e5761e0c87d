import AsyncHTTPClient
import ForumModel
import Foundation
import Logging

/// The forum over HTTP: a logged-in session that re-logs in by itself, every call the bot makes, errors typed.
///
/// One instance per forum account. Requests go out one at a time, spaced by the configured minimum; call
/// `shutdown()` when done with a client that created its own HTTP client.
package actor ForumsClient {
  /// The cookie whose presence means "logged in", as the forum's own client checks it.
  static let sessionCookieName = "bbuserid"

  package nonisolated let configuration: ForumsClientConfiguration
  let transport: ForumTransport
  let logger: Logger
  /// The login under way, shared by every call that finds the session expired at the same time.
  var loginInProgress: Task<ForumIndex, any Error>?
  /// The account's probation as the last page read showed it (`ForumsClient+Probation.swift`).
  package internal(set) var probation: Probation?
  /// User ids found by name for rap sheets (`ForumsClient+LepersColony.swift`).
  var userIDs = UserIDCache()

  package nonisolated var baseURL: URL { configuration.baseURL }

  package init(
    configuration: ForumsClientConfiguration, cookieStore: any CookieStore = InMemoryCookieStore(),
    httpClient: HTTPClient? = nil, logger: Logger = Logger(label: "awfulbot.forums")
  ) {
    self.configuration = configuration
    self.logger = logger
    self.transport = ForumTransport(
      configuration: configuration, cookieStore: cookieStore, httpClient: httpClient, logger: logger)
  }

  /// Closes the HTTP client this instance created (a client passed in stays open).
  package func shutdown() async throws {
    try await transport.shutdown()
  }

  /// Whether the session cookie is present (it says nothing about whether the forum still honours it).
  package func hasSession() async -> Bool {
    await transport.hasCookie(named: Self.sessionCookieName)
  }

  /// The wall in front of the forum (a Cloudflare challenge, a rate limit, maintenance) while the forum's answers are
  /// walls, and since when; nil while the forum answers itself.
  package var wall: ForumWallSighting? {
    get async { await transport.wall }
  }

  /// Forgets the session; the next call logs in again.
  package func logOut() async {
    await transport.clearCookies()
  }
}
