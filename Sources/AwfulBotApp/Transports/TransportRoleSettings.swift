import ChatBridge

/// What a transport's own settings say about who may act, as the transport reads them (`TransportPlugin.roleSettings`):
/// roles are `Role`s, so `check`'s permission table prints what the running bot will apply, not what the file wrote.
package enum TransportRoleSettings: Sendable, Hashable {
  /// Room power levels for `member` and `admin`, the users whose role replaces their power, whose invites are taken,
  /// the bot's own user id, and the rooms the settings name (`rooms`, `threadRooms`).
  case matrix(
    memberPowerLevel: Int, adminPowerLevel: Int, roleOverrides: [String: Role], allowedInviters: [String],
    userID: String, rooms: [String])
  /// The account's admins and members, the role each channel member mode grants, and the channels joined.
  case irc(admins: [String], members: [String], channelRoles: [Character: Role], channels: [String])
  /// The operator's own terminal.
  case console
  /// A transport that only sends (Discord's webhooks): it hears nobody, so nobody acts through it. The rooms it
  /// sends to.
  case relayOnly(rooms: [String])
}
