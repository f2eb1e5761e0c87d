/// A message on its way to a room: what to say and how it relates to other messages. Stored as the outbox payload
/// (JSON) with a schema version; version 1 rows (rendered text) decode as `.legacy`. Version 3 stores dates as
/// instants (`ChatDate`); the database's `v3-outboxDates` migration rewrote version 2 rows, whose dates were text.
package struct OutgoingMessage: Sendable, Hashable {
  package static let schemaVersion = 3

  package var content: ChatMessage
  /// The command message being answered, for transports that thread replies.
  package var inReplyTo: String?
  /// The receipt of an earlier message this one replaces (edits capability only).
  package var replaces: String?
  /// Groups messages of one forum thread (threads capability only).
  package var threadKey: String?
  /// The short reference a relay carries on transports without native replies (`r7`), so a reader can answer it
  /// (`!re r7 …`); nil where replying is off or the transport has replies.
  package var reference: String?
  /// How the room shows the pictures of a relayed post: its setting at the moment of sending, put here by the
  /// dispatcher (not stored with the queued message, so a change applies to what waits already). nil: inline.
  package var pictures: PictureDisplay?

  package init(
    _ content: ChatMessage, inReplyTo: String? = nil, replaces: String? = nil, threadKey: String? = nil,
    reference: String? = nil
  ) {
    self.content = content
    self.inReplyTo = inReplyTo
    self.replaces = replaces
    self.threadKey = threadKey
    self.reference = reference
  }

  /// True for what the bot relays from the forum, false for answers to commands (IRC sends these as PRIVMSG).
  package var isRelay: Bool {
    if case .answer = content { return false }
    return true
  }
}

extension OutgoingMessage: Codable {
  private enum CodingKeys: String, CodingKey {
    case version = "v"
    case content, inReplyTo, replaces, threadKey, reference
    // Schema 1 (rendered) fields.
    case kind, text, html, link
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    inReplyTo = try container.decodeIfPresent(String.self, forKey: .inReplyTo)
    replaces = try container.decodeIfPresent(String.self, forKey: .replaces)
    threadKey = try container.decodeIfPresent(String.self, forKey: .threadKey)
    reference = try container.decodeIfPresent(String.self, forKey: .reference)
    if container.contains(.content) {
      content = try container.decode(ChatMessage.self, forKey: .content)
    } else {
      content = .legacy(
        text: try container.decode(String.self, forKey: .text),
        html: try container.decodeIfPresent(String.self, forKey: .html),
        link: try container.decodeIfPresent(String.self, forKey: .link))
    }
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Self.schemaVersion, forKey: .version)
    try container.encode(content, forKey: .content)
    try container.encodeIfPresent(inReplyTo, forKey: .inReplyTo)
    try container.encodeIfPresent(replaces, forKey: .replaces)
    try container.encodeIfPresent(threadKey, forKey: .threadKey)
    try container.encodeIfPresent(reference, forKey: .reference)
  }
}
