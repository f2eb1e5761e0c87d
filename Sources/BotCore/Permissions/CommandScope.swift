/// What a command acts on, which decides whose grants count (docs/security.md, "The rules").
package enum CommandScope: Sendable, Hashable, CustomStringConvertible {
  /// Reads and changes nothing (help, status, lists, browsing): open to anyone the bot hears.
  case reading
  /// Acts only on the room it is said in (subscribe, watch, mode, quiet, pause): config grants, and room power (Matrix
  /// power levels, IRC channel modes) in any room.
  case room
  /// Acts as or on the forum account (post, private messages, bookmarks, who may post from a room): only what the
  /// operator granted, in the config or through room power in a room the config names.
  case account

  package var description: String {
    switch self {
    case .reading: "reading"
    case .room: "room"
    case .account: "account"
    }
  }
}
