import ForumsClient
import Foundation

extension AppConfiguration.ForumSettings {
  /// The HTTP client's configuration for these settings; throws when the password is not set.
  package func clientConfiguration(environment: [String: String] = ProcessInfo.processInfo.environment) throws
    -> ForumsClientConfiguration
  {
    guard let secret = password.resolve(environment: environment) else {
      throw ConfigurationError(problems: ["forum.password: \(password) is not set"])
    }
    var configuration = ForumsClientConfiguration(
      credentials: ForumCredentials(username: username, password: secret))
    if let base = baseURL {
      // Relative paths resolve under the base only when it ends in a slash.
      configuration.baseURL = base.absoluteString.hasSuffix("/") ? base : base.appendingPathComponent("")
    }
    if let timeZone { configuration.timeZone = timeZone }
    if let spacing = requestSpacingSeconds { configuration.minimumRequestSpacing = .seconds(spacing) }
    if let timeout = requestTimeoutSeconds { configuration.requestTimeout = .seconds(timeout) }
    if let updateReadMarkers { configuration.updatesReadMarkers = updateReadMarkers }
    if let announcementsForumID { configuration.announcementsForumID = announcementsForumID }
    if let userAgent { configuration.userAgent = userAgent }
    for (name, secret) in cookies {
      guard let value = secret.resolve(environment: environment) else {
        throw ConfigurationError(problems: ["forum.cookies.\(name): \(secret) is not set"])
      }
      configuration.extraCookies[name] = value
    }
    return configuration
  }
}
