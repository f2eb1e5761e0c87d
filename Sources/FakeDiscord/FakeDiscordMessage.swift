/// A message the receiver took, as it stands now.
package struct FakeDiscordMessage: Sendable, Hashable, Codable {
  package var id: String
  package var webhookID: String
  package var content: String
  /// The author name the request gave (`username`), nil for the webhook's own.
  package var username: String?
  /// `allowed_mentions.parse` as sent; nil when the request had no `allowed_mentions` (Discord then pings every
  /// mention in the content).
  package var allowedMentionsParse: [String]?
  /// Earlier contents, oldest first (each edit adds one).
  package var history: [String]
  package var deleted: Bool

  /// How the channel shows it.
  package var reading: FakeDiscordReading { FakeDiscordReading(content) }
}

/// One request the receiver answered, without the token.
package struct FakeDiscordRequest: Sendable, Hashable, Codable {
  package enum Outcome: String, Sendable, Hashable, Codable {
    case answered
    /// A 429 because the webhook's bucket was empty: the client did not wait as the headers told it.
    case rateLimited
    /// An answer from a fault.
    case fault
  }

  package var method: String
  package var webhookID: String?
  /// The path after the token (`/messages/1`), or `` for the webhook itself.
  package var rest: String
  package var status: Int
  package var outcome: Outcome
  /// Seconds since the receiver started.
  package var at: Double
}
