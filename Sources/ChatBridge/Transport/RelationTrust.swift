/// Who vouches for what a message or reaction points at: the message a reply answers (`IncomingMessage.replyTo`),
/// and a reaction's key and target. The engine lets a relation alone post or act on the bot account only when the
/// sender vouches for it (docs/security.md, "The rules").
package enum RelationTrust: Sendable, Hashable {
  /// As far as the sender is trusted (`SenderTrust`): the relation is part of what they sent (an IRC line, a plain
  /// Matrix room, where the homeserver sees and could write everything anyway).
  case asSender
  /// Outside what the sender's device encrypted: in an end-to-end encrypted Matrix room the spec keeps
  /// `m.relates_to` in the clear envelope (Element reads it only there), with a reaction's key and target, even for an
  /// encrypted reaction. The homeserver can add, change or remove it on a message its sender really wrote.
  case serverControlled

  package var isServerControlled: Bool { self == .serverControlled }
}
