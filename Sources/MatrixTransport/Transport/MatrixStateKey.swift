/// The keys the transport uses.
enum MatrixStateKey {
  static let userID = "user_id"
  static let accessToken = "access_token"
  static let deviceID = "device_id"
  static let nextBatch = "next_batch"
  static let directRooms = "direct_rooms"
  static let encryptedRooms = "encrypted_rooms"
  /// The picture uploads remembered (`image:…` keys), oldest first, so the oldest can be forgotten.
  static let imageCacheOrder = "image-cache-order"
  /// The pictures of relays already sent that have yet to follow them (`MatrixPendingPictures`), so a restart
  /// sends them.
  static let pendingPictures = "pictures-pending"

  static func thread(room: String, key: String) -> String { "thread:\(room):\(key)" }
  /// Set once the encryption notice went to the room: it is sent once per room ever.
  static func encryptionNotice(room: String) -> String { "encryption-notice:\(room)" }
  /// Who was told, in which room and when, that the bot does not act on their unverified session
  /// (`UnverifiedSessionNotices`, one bounded value).
  static let unverifiedSessionNotices = "unverified-session-notices"
  /// Builds before kept a row per room, user and device under keys with this prefix, for ever; they are removed at
  /// start (`forgetLegacyNoticeRows`).
  static let legacyUntrustedDeviceNoticePrefix = "untrusted-device-notice:"
}
