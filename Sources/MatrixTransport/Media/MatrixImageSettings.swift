import ChatBridge

/// The `images` object of a Matrix transport in the config file: pictures in relayed posts are shown in the room
/// (uploaded to the homeserver, encrypted in encrypted rooms) within these limits; the rest stay links.
///
/// ```json
/// "images": { "enabled": true, "maxBytes": 5242880, "maxPixels": 16777216, "perPost": 4, "perHour": 120 }
/// ```
///
/// A room that wants links only says so in its own settings (`"pictures": "links"` in `rooms[]`, `!pictures links`).
package struct MatrixImageSettings: Sendable, Hashable, Codable {
  package var enabled: Bool
  /// The largest file downloaded.
  package var maxBytes: Int
  /// The largest picture (width × height) uploaded: a small file can unpack into a huge bitmap on every phone. The
  /// default, 4096 × 4096, is 64 MiB once decoded (four bytes a pixel), and every client decodes an `m.image` in
  /// full to draw it, every frame of an animation too: a phone's whole memory budget for pictures, or more, went
  /// to one 30-megapixel picture (120 MiB). Photos from phones (12 megapixels) still pass.
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

  package init(
    enabled: Bool = true, maxBytes: Int = 5 * 1024 * 1024, maxPixels: Int = 4096 * 4096, perPost: Int = 4,
    perHour: Int = 120, timeoutSeconds: Double = 10, allowPrivateNetworks: Bool = false
  ) {
    self.enabled = enabled
    self.maxBytes = maxBytes
    self.maxPixels = maxPixels
    self.perPost = perPost
    self.perHour = perHour
    self.timeoutSeconds = timeoutSeconds
    self.allowPrivateNetworks = allowPrivateNetworks
  }

  enum CodingKeys: String, CodingKey {
    case enabled, maxBytes, maxPixels, perPost, perHour, timeoutSeconds, allowPrivateNetworks
  }

  /// Reads every key, a value of the wrong shape reported and its default taken; throws `MatrixConfigurationError`
  /// naming each key. `rooms` (which rooms showed links only) moved to the rooms' settings and is reported so.
  package init(from decoder: any Decoder) throws {
    let reader = try ConfigReader<CodingKeys>(decoder)
    let defaults = MatrixImageSettings()
    self.init(
      enabled: reader.bool(.enabled) ?? defaults.enabled, maxBytes: reader.integer(.maxBytes) ?? defaults.maxBytes,
      maxPixels: reader.integer(.maxPixels) ?? defaults.maxPixels,
      perPost: reader.integer(.perPost) ?? defaults.perPost,
      perHour: reader.integer(.perHour) ?? defaults.perHour,
      timeoutSeconds: reader.number(.timeoutSeconds) ?? defaults.timeoutSeconds,
      allowPrivateNetworks: reader.bool(.allowPrivateNetworks) ?? defaults.allowPrivateNetworks)
    if reader.writtenKeys.contains("rooms") {
      reader.report(
        "rooms",
        "moved to the rooms' own settings: give each room \"pictures\": \"links\" in its rooms[] entry, or say "
          + "!pictures links in the room")
    }
    if !reader.problems.isEmpty { throw MatrixConfigurationError(reader.problems) }
  }
}
