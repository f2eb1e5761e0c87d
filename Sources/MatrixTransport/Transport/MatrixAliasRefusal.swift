/// Why a configured room alias stands for no room in the bot (`MatrixAliasPins`): each says what to write instead.
package enum MatrixAliasRefusal: Error, Sendable, Equatable, CustomStringConvertible {
  /// The homeserver says nobody holds the alias (and it was never pinned).
  case missing(alias: String)
  /// The alias names a room the bot joined on an invite from someone `allowedInviters` does not name by user id.
  case invitedByStranger(alias: String, room: String, inviter: String)
  /// The alias did not exist when the bot first looked it up, and names a room now.
  case appearedLater(alias: String, room: String, missingSince: String)

  package var description: String {
    switch self {
    case .missing(let alias):
      "\(alias) names no room (the homeserver does not know the alias)"
    case .invitedByStranger(let alias, let room, let inviter):
      "\(alias) names \(room), a room the bot joined on an invite from \(inviter), whom allowedInviters does not "
        + "name by user id; it is not taken as the configured room (if it is yours, write \(room) in the config in "
        + "place of \(alias))"
    case .appearedLater(let alias, let room, let since):
      "\(alias) did not exist when the bot first looked it up (\(since)) and now names \(room); an alias that "
        + "appears later is not taken on its own (if \(room) is yours, write it in the config in place of \(alias))"
    }
  }
}
