/// A change of the bot's own membership in a room, as the service reported it.
package struct MembershipChange: Sendable, Hashable {
  package enum Kind: String, Sendable, Hashable, Codable {
    case invited
    case joined
    case left
    case kicked
    case banned
    /// The other side of a direct room is gone: an IRC nick that quit or changed, which someone else may take next.
    case partnerLeft
  }

  package var transport: String
  package var room: String
  package var kind: Kind
  /// Who did it (a Matrix user id, an IRC nick), when the service says.
  package var by: String?
  package var reason: String?

  package init(transport: String, room: String, kind: Kind, by: String? = nil, reason: String? = nil) {
    self.transport = transport
    self.room = room
    self.kind = kind
    self.by = by
    self.reason = reason
  }

  /// The bot was removed against its will: the engine pauses the room (one rule for every transport).
  package var removesTheBot: Bool { kind == .kicked || kind == .banned }

  /// The room stops receiving until someone allowed says `resume` there: the bot was removed, or the person it
  /// spoke to is gone and their name is free for anyone.
  package var pausesTheRoom: Bool { removesTheBot || kind == .partnerLeft }
}
