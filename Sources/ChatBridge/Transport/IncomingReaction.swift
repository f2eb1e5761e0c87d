/// Someone reacted to a message in a room the bot is in (a Matrix `m.reaction` annotation).
package struct IncomingReaction: Sendable, Hashable {
  package var transport: String
  package var room: String
  package var senderID: String
  package var senderName: String
  /// The transport's id of the message reacted to.
  package var target: String
  /// The reaction itself, as sent (`✅`, `🔖`); variation selectors are the transport's to strip.
  package var key: String
  /// The transport's id of the reaction (the bot may answer it).
  package var reactionID: String?
  /// The role the transport itself grants the sender (room power), when it has such a notion.
  package var transportRole: Role?

  package init(
    transport: String, room: String, senderID: String, senderName: String, target: String, key: String,
    reactionID: String? = nil, transportRole: Role? = nil
  ) {
    self.transport = transport
    self.room = room
    self.senderID = senderID
    self.senderName = senderName
    self.target = target
    self.key = key
    self.reactionID = reactionID
    self.transportRole = transportRole
  }
}
