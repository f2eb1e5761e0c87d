/// The bot's version, sent in the User-Agent so the forum's admins can tell who is calling.
package enum AwfulBotVersion {
  package static let current = "0.1.0"
  package static let projectURL = "https://github.com/awfulbot"

  /// `AwfulBot/0.1.0 (+https://github.com/awfulbot)`.
  package static var userAgent: String { "AwfulBot/\(current) (+\(projectURL))" }
}
