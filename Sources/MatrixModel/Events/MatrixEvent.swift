import ChatBridge

/// A client event (timeline, state or to-device). The content stays open JSON as it came, so nothing the homeserver
/// sent is lost on the way (signatures are checked over all of it, relations are passed on as they are); the bot
/// reads it through the typed content of its type (`content(as:)`).
package struct MatrixEvent: Sendable, Hashable, Codable {
  package var type: String
  package var sender: String?
  package var eventID: String?
  package var stateKey: String?
  package var content: JSONValue
  package var originServerTS: Int64?
  /// The bot decrypted this event from an `m.room.encrypted` one sent by a device the policy trusts. Set only in
  /// the process (`MatrixTransport.withCleartextRelation`), never read from the wire: a plain event in an encrypted
  /// room passed no device check and must not act as a trusted one.
  package var wasEncrypted = false

  package init(
    type: String, sender: String?, eventID: String? = nil, stateKey: String? = nil, content: JSONValue,
    originServerTS: Int64? = nil
  ) {
    self.type = type
    self.sender = sender
    self.eventID = eventID
    self.stateKey = stateKey
    self.content = content
    self.originServerTS = originServerTS
  }

  enum CodingKeys: String, CodingKey {
    case type
    case sender
    case eventID = "event_id"
    case stateKey = "state_key"
    case content
    case originServerTS = "origin_server_ts"
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    type = try container.decode(String.self, forKey: .type)
    sender = try container.decodeIfPresent(String.self, forKey: .sender)
    eventID = try container.decodeIfPresent(String.self, forKey: .eventID)
    stateKey = try container.decodeIfPresent(String.self, forKey: .stateKey)
    // Redacted events may have no content at all.
    content = try container.decodeIfPresent(JSONValue.self, forKey: .content) ?? .object([:])
    // Lenient: a timestamp that is no Int64 (1e300, a string) loses only itself, not the event and the sync with it.
    originServerTS = container.lenient(Int64.self, forKey: .originServerTS)
  }

  /// The content read as `Content`; nil when the event is of another type or its content is not an object.
  package func content<Content: MatrixEventContent>(as type: Content.Type) -> Content? {
    guard self.type == Content.eventType else { return nil }
    return content.decoded(as: Content.self)
  }

  /// `membership` of an `m.room.member` event.
  package var membership: String? { content(as: MatrixMember.self)?.membership }
}
