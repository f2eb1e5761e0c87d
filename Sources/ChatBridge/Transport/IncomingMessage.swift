import Foundation

/// A message someone wrote in a room the bot is in.
package struct IncomingMessage: Sendable, Hashable {
  package var transport: String
  package var room: String
  package var senderID: String
  package var senderName: String
  package var text: String
  /// The transport's id of this message, for replies (Matrix event id).
  package var messageID: String?
  /// A private conversation with the bot (IRC query, Matrix DM).
  package var isDirect: Bool
  /// The role the transport itself grants (room power, channel op), when it has such a notion.
  package var transportRole: Role?
  /// The role the transport's own config grants this user wherever they write (IRC `admins`/`members`, Matrix
  /// `roleOverrides`): named by the operator, so it counts for the forum account too, unlike room power.
  package var configuredRole: Role?
  /// The transport found the message addressed to the bot (IRC `nick: text`) and removed the address from `text`:
  /// the command parser reads it like a direct message.
  package var addressed: Bool
  /// Addressed the casual way (`awfulbot help`, nick and a space), which also starts ordinary sentences about the
  /// bot ("awfulbot is down"): only a known command gets an answer.
  package var addressedCasually: Bool
  /// The message this one answers, by the transport's id (a Matrix reply's `m.in_reply_to` event), with any quoted
  /// fallback of it already removed from `text`. nil for a message that answers nothing.
  package var replyTo: String?
  /// Whether the sender is who the service says (see `SenderTrust`).
  package var trust: SenderTrust
  /// Whether the sender or the service vouches for `replyTo` (see `RelationTrust`): in an encrypted Matrix room the
  /// homeserver can make any line a reply.
  package var relationTrust: RelationTrust

  package init(
    transport: String, room: String, senderID: String, senderName: String, text: String, messageID: String? = nil,
    isDirect: Bool = false, transportRole: Role? = nil, configuredRole: Role? = nil, addressed: Bool = false,
    addressedCasually: Bool = false, replyTo: String? = nil, trust: SenderTrust = .trusted,
    relationTrust: RelationTrust = .asSender
  ) {
    self.trust = trust
    self.relationTrust = relationTrust
    self.configuredRole = configuredRole
    self.replyTo = replyTo
    self.addressedCasually = addressedCasually
    self.transport = transport
    self.room = room
    self.senderID = senderID
    self.senderName = senderName
    self.text = text
    self.messageID = messageID
    self.isDirect = isDirect
    self.transportRole = transportRole
    self.addressed = addressed
  }
}
