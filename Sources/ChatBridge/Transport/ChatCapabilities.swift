/// What a transport can do that changes what the engine decides to say. How a message looks (HTML, line budgets)
/// is the transport's own business, decided by its renderer at send time, so it is not declared here.
package struct ChatCapabilities: Sendable, Hashable {
  /// The transport can replace an earlier message (`OutgoingMessage.replaces`): summary bursts are edited in place.
  package var edits: Bool
  /// The transport can group messages in threads (`OutgoingMessage.threadKey`).
  package var threads: Bool
  /// People answer a message natively (`IncomingMessage.replyTo`), so relays need no visible reference to be
  /// answered; without it a relay carries a short one (`[r7]`) in rooms where replying is on.
  package var replies: Bool
  /// People react to messages (`ChatEvent.reaction`) and the bot can react back (`ChatTransport.react`).
  package var reactions: Bool
  /// The transport can take back a message it sent (`ChatTransport.redact`): relays of posts deleted on the forum
  /// are removed.
  package var removals: Bool
  /// The transport shows a relayed post's pictures in the room, unless the room's `pictures` setting keeps them links
  /// (`OutgoingMessage.pictures`).
  package var pictures: Bool

  package init(
    edits: Bool = false, threads: Bool = false, replies: Bool = false, reactions: Bool = false, removals: Bool = false,
    pictures: Bool = false
  ) {
    self.removals = removals
    self.pictures = pictures
    self.edits = edits
    self.threads = threads
    self.replies = replies
    self.reactions = reactions
  }

  package static let plainText = ChatCapabilities()
}
