/// A transport's end-to-end encryption as `status` shows it, for services that have it (Matrix); nil elsewhere.
package struct EncryptionStatus: Sendable, Hashable {
  /// Rooms where the bot cannot read commands (encrypted rooms while encryption is off).
  package var unreadableRooms: [String]
  /// Rooms the bot reads and writes encrypted, each with whether the room's current key went to every joined
  /// device (false also before the first message there).
  package var roomKeysShared: [String: Bool]
  /// The bot's identity in a sentence ("cross-signed identity, master key …"); nil before it is known.
  package var identity: String?

  package init(unreadableRooms: [String] = [], roomKeysShared: [String: Bool] = [:], identity: String? = nil) {
    self.unreadableRooms = unreadableRooms
    self.roomKeysShared = roomKeysShared
    self.identity = identity
  }
}
