/// Someone reacted to a message in a room the bot is in (a Matrix `m.reaction` annotation).
package struct IncomingReaction: Sendable, Hashable {
  package var transport: String
  package var room: String
  package var senderID: String
  package var senderName: String
  /// The transport's id of the message reacted to.
  package var target: String
  /// The reaction as people mean it (`✅`, `🔖`): without the trailing emoji-presentation selector some pickers add
  /// (see `normalizedKey`).
  package var key: String
  /// The transport's id of the reaction (the bot may answer it).
  package var reactionID: String?
  /// The role the transport itself grants the sender (room power), when it has such a notion.
  package var transportRole: Role?
  /// The role the transport's own config grants this user wherever they write (IRC `admins`/`members`, Matrix
  /// `roleOverrides`): named by the operator, so it counts for the forum account too, unlike room power.
  package var configuredRole: Role?
  /// Whether the sender is who the service says (see `SenderTrust`): Element sends reactions in clear even in
  /// encrypted rooms, so most reactions there are `unencryptedInEncryptedRoom`.
  package var trust: SenderTrust
  /// Whether the sender or the service vouches for `key` and `target` (see `RelationTrust`): in an encrypted Matrix
  /// room both are in the clear, even for an encrypted reaction, so the homeserver controls them.
  package var relationTrust: RelationTrust

  package init(
    transport: String, room: String, senderID: String, senderName: String, target: String, key: String,
    reactionID: String? = nil, transportRole: Role? = nil, configuredRole: Role? = nil, trust: SenderTrust = .trusted,
    relationTrust: RelationTrust = .asSender
  ) {
    self.trust = trust
    self.relationTrust = relationTrust
    self.configuredRole = configuredRole
    self.transport = transport
    self.room = room
    self.senderID = senderID
    self.senderName = senderName
    self.target = target
    self.key = Self.normalizedKey(key)
    self.reactionID = reactionID
    self.transportRole = transportRole
  }

  /// A reaction key as people mean it: emoji pickers send some emoji with the emoji-presentation selector (U+FE0F,
  /// `✅\u{FE0F}`) and some without, and both are the same reaction. Only trailing selectors go; a key that is
  /// nothing but the selector stays as sent.
  package static func normalizedKey(_ key: String) -> String {
    var scalars = Array(key.unicodeScalars)
    while scalars.count > 1, scalars.last == "\u{FE0F}" { scalars.removeLast() }
    var normalized = String.UnicodeScalarView()
    normalized.append(contentsOf: scalars)
    return String(normalized)
  }
}
