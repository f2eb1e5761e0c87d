/// The `images` object of a Matrix transport in the config file: pictures in relayed posts are shown in the room
/// (uploaded to the homeserver, encrypted in encrypted rooms) within these limits; the rest stay links.
///
/// ```json
/// "images": { "enabled": true, "maxBytes": 5242880, "maxPixels": 30000000, "perPost": 4, "perHour": 120,
///             "rooms": { "#quiet:example.org": "links" } }
/// ```
package struct MatrixImageSettings: Sendable, Hashable, Codable {
  /// How a room shows a relayed post's pictures.
  package enum Mode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Each picture in the room, as an `m.image` after the relay (the default).
    case inline
    /// Links only: nothing is downloaded for the room.
    case links
  }

  package var enabled: Bool
  /// The largest file downloaded.
  package var maxBytes: Int
  /// The largest picture (width × height) uploaded: a small file can unpack into a huge bitmap on every phone.
  package var maxPixels: Int
  /// Pictures shown per relayed post; the rest stay links.
  package var perPost: Int
  /// Downloads per hour for the whole transport (pictures already uploaded cost none).
  package var perHour: Int
  /// How long one download may take, from the request to its last byte.
  package var timeoutSeconds: Double
  /// Whether pictures may come from private, loopback or link-local addresses. Off: a post cannot make the bot
  /// fetch from the machine it runs on or its network. The tests against the emulator turn it on.
  package var allowPrivateNetworks: Bool
  /// Rooms (ids or aliases, as in `rooms`) that show pictures otherwise than `inline`.
  package var rooms: [String: Mode]

  package init(
    enabled: Bool = true, maxBytes: Int = 5 * 1024 * 1024, maxPixels: Int = 30_000_000, perPost: Int = 4,
    perHour: Int = 120, timeoutSeconds: Double = 10, allowPrivateNetworks: Bool = false, rooms: [String: Mode] = [:]
  ) {
    self.rooms = rooms
    self.enabled = enabled
    self.maxBytes = maxBytes
    self.maxPixels = maxPixels
    self.perPost = perPost
    self.perHour = perHour
    self.timeoutSeconds = timeoutSeconds
    self.allowPrivateNetworks = allowPrivateNetworks
  }

  enum CodingKeys: String, CodingKey {
    case enabled, maxBytes, maxPixels, perPost, perHour, timeoutSeconds, allowPrivateNetworks, rooms
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let defaults = MatrixImageSettings()
    self.init(
      enabled: try container.decodeIfPresent(Bool.self, forKey: .enabled) ?? defaults.enabled,
      maxBytes: try container.decodeIfPresent(Int.self, forKey: .maxBytes) ?? defaults.maxBytes,
      maxPixels: try container.decodeIfPresent(Int.self, forKey: .maxPixels) ?? defaults.maxPixels,
      perPost: try container.decodeIfPresent(Int.self, forKey: .perPost) ?? defaults.perPost,
      perHour: try container.decodeIfPresent(Int.self, forKey: .perHour) ?? defaults.perHour,
      timeoutSeconds: try container.decodeIfPresent(Double.self, forKey: .timeoutSeconds) ?? defaults.timeoutSeconds,
      allowPrivateNetworks: try container.decodeIfPresent(Bool.self, forKey: .allowPrivateNetworks)
        ?? defaults.allowPrivateNetworks,
      rooms: try Self.decodeRooms(from: container))
  }

  /// `rooms` with a sentence naming the modes when one is unknown.
  private static func decodeRooms(from container: KeyedDecodingContainer<CodingKeys>) throws -> [String: Mode] {
    let written = try container.decodeIfPresent([String: String].self, forKey: .rooms) ?? [:]
    return try written.mapValues { name in
      guard let mode = Mode(rawValue: name) else {
        throw DecodingError.dataCorruptedError(
          forKey: .rooms, in: container,
          debugDescription:
            "unknown picture mode “\(name)” (\(Mode.allCases.map(\.rawValue).joined(separator: " or ")))")
      }
      return mode
    }
  }
}
