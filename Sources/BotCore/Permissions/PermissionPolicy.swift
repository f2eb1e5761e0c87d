import ChatBridge
import Foundation

/// Who may do what, in two scopes (`CommandScope`).
///
/// - Room scope: the highest of the default role, what `roles[]` grants the sender's user id on that transport, and
///   what the transport grants (room power, channel operator status, the transport's own admins and members).
/// - Account scope: only what the operator named: `roles[]`, the transport's own per-user grants
///   (`IncomingMessage.configuredRole`), and room power only in a room the config names (`namedRooms`). A room the
///   bot joined on someone's invite gives its creator power 100 there, and nothing on the forum account.
package struct PermissionPolicy: Sendable, Hashable {
  /// transport name → user id → role. The transport `*` applies to every transport, but only for user ids that name
  /// one person everywhere (a Matrix id, `@name:server`): a bare IRC account or nick means someone else on each network.
  package var grants: [String: [String: Role]]
  /// What everyone else gets: `viewer`, so reading commands are open (docs/security.md, "The rules").
  package var defaultRole: Role
  /// The rooms the config names (`rooms[]`, a transport's own rooms, `privateMessages.rooms`), by their resolved
  /// ids: room power counts for the account only in these.
  package var namedRooms: Set<RoomRef>
  /// transport name → user id → the person's forum username (`roles[].forumName`), with `*` as in `grants`: the only
  /// way the bot knows whose forum name a chat user has. A display name or nick is anyone's to choose.
  package var forumNames: [String: [String: String]]

  package init(
    grants: [String: [String: Role]] = [:], defaultRole: Role = .viewer, namedRooms: Set<RoomRef> = [],
    forumNames: [String: [String: String]] = [:]
  ) {
    self.grants = grants
    self.defaultRole = defaultRole
    self.namedRooms = namedRooms
    self.forumNames = forumNames
  }

  /// The forum username the config gives the sender (`roles[].forumName`), nil when it gives none.
  package func forumName(of message: IncomingMessage) -> String? {
    let everywhere = Self.isGlobalUserID(message.senderID) ? forumNames["*"]?[message.senderID] : nil
    return forumNames[message.transport]?[message.senderID] ?? everywhere
  }

  /// The sender's role in room scope.
  package func role(of message: IncomingMessage) -> Role {
    role(transport: message.transport, userID: message.senderID, transportRole: message.transportRole)
  }

  /// The sender's role in `scope` (reading is room scope: nothing to protect).
  package func role(of message: IncomingMessage, in scope: CommandScope) -> Role {
    switch scope {
    case .reading, .room:
      return role(of: message)
    case .account:
      let room = RoomRef(transport: message.transport, room: message.room)
      let roomPower = namedRooms.contains(room) ? message.transportRole : nil
      return [configGrant(transport: message.transport, userID: message.senderID), message.configuredRole, roomPower]
        .compactMap { $0 }.max() ?? defaultRole
    }
  }

  package func role(transport: String, userID: String, transportRole: Role?) -> Role {
    [configGrant(transport: transport, userID: userID), transportRole].compactMap { $0 }.max() ?? defaultRole
  }

  /// The default role and what `roles[]` grants the user.
  private func configGrant(transport: String, userID: String) -> Role {
    let everywhere = Self.isGlobalUserID(userID) ? grants["*"]?[userID] : nil
    return [defaultRole, grants[transport]?[userID], everywhere].compactMap { $0 }.max() ?? defaultRole
  }

  /// A user id that means the same person on every transport: a Matrix id (`@name:server`).
  package static func isGlobalUserID(_ userID: String) -> Bool {
    userID.hasPrefix("@") && userID.dropFirst().contains(":")
  }

  /// Whether room power in `room` counts for the account.
  package func isNamed(_ room: RoomRef) -> Bool { namedRooms.contains(room) }

  /// nil when allowed, else the one sentence to say in chat: what the command needs and, where room power does not
  /// count for the account, who can grant it.
  package func denial(for message: IncomingMessage, command: String, needs required: Role, in scope: CommandScope)
    -> String?
  {
    let role = role(of: message, in: scope)
    guard role < required else { return nil }
    let room = RoomRef(transport: message.transport, room: message.room)
    if scope == .account, !isNamed(room) {
      return Self.accountRefusal("“\(command)”", needs: required, has: role, roomRole: self.role(of: message))
    }
    return "“\(command)” needs the \(required) role; you are \(role.withArticle)."
  }

  /// The refusal of an account-scope action in a room the config does not name, in one sentence: what it needs and
  /// who can grant it (`what` names the command or action as the user gave it). In a named room, room power counts,
  /// and the room's own refusal ("needs the admin role; you are a viewer") says enough.
  package static func accountRefusal(_ what: String, needs required: Role, has role: Role, roomRole: Role) -> String {
    let grant =
      "\(what) acts on the bot's forum account, so it needs the \(required) role from the bot's operator (roles in "
      + "its config, or room power in a room its config names)"
    // Their room power would do in a room the operator named: say why it does not count here.
    if roomRole >= required {
      return grant + "; your power in this room does not count, as the config does not name it."
    }
    return grant + "; you are \(role.withArticle)."
  }
}
