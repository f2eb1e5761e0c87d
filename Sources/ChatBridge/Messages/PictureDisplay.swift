/// How a room shows the pictures of relayed posts, on a transport that can show them (`ChatCapabilities.pictures`).
/// A room setting (`pictures` in `rooms[]`, `!pictures` in the room); the dispatcher puts it on each message it sends
/// (`OutgoingMessage.pictures`).
package enum PictureDisplay: String, Sendable, Hashable, Codable, CaseIterable {
  /// Each picture in the room after the relay (the default).
  case inline
  /// Links only: nothing is downloaded for the room.
  case links
}
