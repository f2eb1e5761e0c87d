import ChatBridge

/// The parts of a `/sync` answer the bot reads (spec: GET /_matrix/client/v3/sync).
package struct MatrixSyncResponse: Sendable, Hashable, Decodable {
  package var nextBatch: String
  package var rooms: Rooms?
  /// End-to-end encryption: messages sent to this device (room keys), whose device lists changed, how many of the
  /// device's one-time keys are left on the homeserver.
  package var toDevice: EventList?
  package var deviceLists: DeviceLists?
  package var oneTimeKeysCount: [String: Int]?
  /// Key types whose fallback key is still unused; a type missing here means the fallback key was used.
  package var unusedFallbackKeyTypes: [String]?

  package struct DeviceLists: Sendable, Hashable, Decodable {
    package var changed: [String]?
    package var left: [String]?
  }

  package struct Rooms: Sendable, Hashable, Decodable {
    package var join: [String: JoinedRoom]?
    package var invite: [String: InvitedRoom]?
    package var leave: [String: LeftRoom]?
  }

  package struct JoinedRoom: Sendable, Hashable, Decodable {
    package var state: EventList?
    package var timeline: Timeline?
  }

  package struct InvitedRoom: Sendable, Hashable, Decodable {
    package var inviteState: EventList?

    enum CodingKeys: String, CodingKey {
      case inviteState = "invite_state"
    }
  }

  package struct LeftRoom: Sendable, Hashable, Decodable {
    package var state: EventList?
    package var timeline: Timeline?
  }

  package struct Timeline: Sendable, Hashable, Decodable {
    package var events: [MatrixEvent]?
    package var limited: Bool?
  }

  package struct EventList: Sendable, Hashable, Decodable {
    package var events: [MatrixEvent]?
  }

  enum CodingKeys: String, CodingKey {
    case nextBatch = "next_batch"
    case rooms
    case toDevice = "to_device"
    case deviceLists = "device_lists"
    case oneTimeKeysCount = "device_one_time_keys_count"
    case unusedFallbackKeyTypes = "device_unused_fallback_key_types"
  }
}

/// A client event (timeline or state). Content stays open JSON; the typed accessors read what the bot needs.
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
    originServerTS = try container.decodeIfPresent(Int64.self, forKey: .originServerTS)
  }

  /// `membership` of an `m.room.member` event.
  package var membership: String? { content["membership"]?.stringValue }
}
