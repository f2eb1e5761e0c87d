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
