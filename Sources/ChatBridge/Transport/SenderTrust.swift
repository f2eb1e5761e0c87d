/// How far the transport vouches for who sent a message or reaction. The engine lets an event act as the bot (post,
/// change bookmarks or a room's settings, show private messages) only when it is `trusted` (docs/security.md, "The rules").
package enum SenderTrust: Sendable, Hashable {
  /// As sure as the service allows: a line on IRC, a message in a plain Matrix room, or an encrypted event from a
  /// device the encryption policy trusts.
  case trusted
  /// Sent in clear in a room the bot knows is end-to-end encrypted. The homeserver, or anyone holding the sender's
  /// access token, could have written it, and no device check applied to it.
  case unencryptedInEncryptedRoom

  package var isTrusted: Bool { self == .trusted }
}
