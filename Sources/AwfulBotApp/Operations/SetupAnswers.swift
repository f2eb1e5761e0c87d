/// What `awfulbot setup` asks; each can also come from a flag (`--forum-username` …) for non-interactive use.
package struct SetupAnswers: Sendable, Hashable {
  package var forumUsername: String?
  package var forumPassword: String?
  package var forumBaseURL: String?
  package var forumTimeZone: String?
  package var dataDirectory: String?
  /// `console`, `matrix`, `irc` or `discord`.
  package var transport: TransportType?
  package var matrixHomeserver: String?
  package var matrixUserID: String?
  package var matrixAccessToken: String?
  package var matrixRoom: String?
  /// `host:port`.
  package var ircServer: String?
  package var ircNick: String?
  package var ircChannel: String?
  package var ircTLS: Bool?
  /// What the config calls the Discord channel (`general`), and its incoming webhook's URL (a secret).
  package var discordRoom: String?
  package var discordWebhook: String?
  /// The chat user who gets the admin role (a Matrix id, an IRC account or `nick!user@host` mask).
  package var adminUser: String?
  package var metricsListen: String?
  /// Secrets go into an environment file next to the config (default), or literally into the config (0600).
  package var secretsInConfig: Bool = false

  package init() {}
}
