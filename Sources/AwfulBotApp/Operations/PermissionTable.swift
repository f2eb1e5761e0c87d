import BotCore
import ChatBridge
import Foundation

/// `check`'s account of who may do what, per transport, read from the config as the running bot reads it
/// (`PermissionPolicy`): the account scope (post, private messages, bookmarks) only for whom the operator named, the
/// room scope for them and for room power in any room the bot is in, reading for everyone the bot hears. Warns when
/// the bot joins rooms of people the operator does not know (`allowedInviters` of `*` or another server).
package enum PermissionTable {
  package static func results(for configuration: AppConfiguration) -> [CheckResult] {
    var tables: [CheckResult] = []
    var results: [CheckResult] = []
    for settings in configuration.transports {
      let name = settings.resolvedName
      let grants = (configuration.roles ?? []).filter { $0.transport == name || $0.transport == "*" }
        .map { "\($0.user) (\($0.role)\($0.transport == "*" ? ", every transport" : ""))" }
      let own = settings.roleSettings
      let named = namedRooms(of: name, in: configuration, own: own)
      var account = ["roles[]: " + (grants.isEmpty ? "nobody" : grants.joined(separator: ", "))]
      var room: [String] = []
      switch own {
      case .matrix(let member, let admin, let roleOverrides, let inviters, let userID, _):
        let overrides = roleOverrides.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value.description))" }
        if !overrides.isEmpty { account.append("roleOverrides: " + overrides.joined(separator: ", ")) }
        let power = "room power \(member)+ member, \(admin)+ admin"
        account.append(
          named.isEmpty
            ? "\(power): in no room (the config names none)" : "\(power) in \(named.joined(separator: ", "))")
        room.append(
          "\(power) in any room the bot is in"
            + (inviters.isEmpty
              ? " (it joins only the rooms its config names)"
              : " (it joins on invites from "
                + inviters.joined(separator: ", ") + ")"))
        results += inviterWarnings(inviters, botUser: userID, transport: name)
      case .irc(let admins, let members, let channelRoles, _):
        if !admins.isEmpty { account.append("admins: " + admins.joined(separator: ", ")) }
        if !members.isEmpty { account.append("members: " + members.joined(separator: ", ")) }
        let power = channelRoles.isEmpty ? "no channel modes" : "channel modes " + modesText(channelRoles)
        account.append(named.isEmpty ? "\(power): in no channel" : "\(power) in \(named.joined(separator: ", "))")
        room.append("\(power) in the channel they are said in")
        results += nickRoomWarnings(configuration, transport: name)
      case .console:
        account.append("whoever types at the console (the operator's own terminal)")
      case .relayOnly:
        // Nothing said there reaches the bot: the usual four lines would promise what cannot happen.
        tables.append(
          CheckResult(
            .pass, "who may act on \(name)",
            detail: "nobody: it only sends (relay only), so no command, reply or reaction comes from there; "
              + "change its rooms from another transport's rooms or in the config"))
        continue
      }
      room.insert("everyone with the account scope", at: 0)
      let detail = [
        "account (post, private messages, bookmarks, who may reply): " + account.joined(separator: "; "),
        "room (subscribe, watch, mode, quiet, pause, pictures, editnotices, unfurl, reactions there): "
          + room.joined(separator: "; "),
        "reading (help, status, lists, browsing): everyone the bot hears, within the command budget",
        "private messages (pms, pm, pmreply): only in privateMessages.rooms"
          + (privateMessageRooms(of: name, in: configuration).map { ": " + $0 } ?? " (none here)"),
      ].joined(separator: "\n    ")
      tables.append(CheckResult(.pass, "who may act on \(name)", detail: "\n    " + detail))
    }
    return tables + results
  }

  /// The rooms of transport `name` the config names: room power counts for the account in these.
  private static func namedRooms(of name: String, in configuration: AppConfiguration, own: TransportRoleSettings)
    -> [String]
  {
    var rooms = (configuration.rooms ?? []).filter { $0.transport == name }.map(\.room)
    rooms += (configuration.privateMessages?.rooms ?? []).filter { $0.transport == name }.map(\.room)
    switch own {
    case .matrix(_, _, _, _, _, let own), .irc(_, _, _, let own), .relayOnly(let own): rooms += own
    case .console: break
    }
    var seen: Set<String> = []
    return rooms.filter { seen.insert($0.lowercased()).inserted }
  }

  /// `+q +a +o +h admin, +v member`: the modes of each role, the highest role first, the modes in the order IRC
  /// ranks them (then any other letter).
  package static func modesText(_ channelRoles: [Character: Role]) -> String {
    let rank = Array("qaohv")
    func position(_ mode: Character) -> (Int, Character) { (rank.firstIndex(of: mode) ?? rank.count, mode) }
    return Role.allCases.reversed().compactMap { role in
      let modes = channelRoles.filter { $0.value == role }.keys.sorted { position($0) < position($1) }
      return modes.isEmpty ? nil : modes.map { "+\($0)" }.joined(separator: " ") + " \(role.description)"
    }.joined(separator: ", ")
  }

  private static func privateMessageRooms(of name: String, in configuration: AppConfiguration) -> String? {
    let rooms = (configuration.privateMessages?.rooms ?? []).filter { $0.transport == name }.map(\.room)
    return rooms.isEmpty ? nil : rooms.joined(separator: ", ")
  }

  /// An IRC private-message room named by nick: whoever holds the nick reads the account's private messages. The
  /// bot pauses such a room when it sees the nick go, but it cannot see a nick that shares no channel with it on a
  /// network without MONITOR; `account:<name>` follows the services account instead.
  static func nickRoomWarnings(_ configuration: AppConfiguration, transport: String) -> [CheckResult] {
    (configuration.privateMessages?.rooms ?? []).filter {
      $0.transport == transport && !$0.room.hasPrefix("#") && !$0.room.hasPrefix("&")
        && !$0.room.hasPrefix("account:")
    }.map { room in
      CheckResult(
        .warn, "private messages on \(transport)",
        detail: "privateMessages.rooms names the nick \(room.room): whoever holds that nick reads the forum "
          + "account's private messages; the bot pauses the room when it sees the nick go, not when it cannot see it",
        fix: "name the services account instead: \"account:\(room.room)\" (the bot then writes to whatever nick "
          + "that account is logged in under)")
    }
  }

  /// `*`, or a server other than the bot's own: people the operator may not know can put the bot in their rooms.
  static func inviterWarnings(_ inviters: [String], botUser: String?, transport: String) -> [CheckResult] {
    let ownServer = botUser?.split(separator: ":", maxSplits: 1).dropFirst().first.map { $0.lowercased() }
    var results: [CheckResult] = []
    for entry in inviters {
      if entry == "*" {
        results.append(
          CheckResult(
            .warn, "invites on \(transport)",
            detail: "allowedInviters is *: anyone on any server can bring the bot into a room of theirs and change "
              + "that room's settings (never the forum account)",
            fix: "name the people (@you:server) or your own server instead of *"))
        continue
      }
      guard !entry.hasPrefix("@") else { continue }
      let server = (entry.hasPrefix(":") ? String(entry.dropFirst()) : entry).lowercased()
      if let ownServer, server != ownServer {
        results.append(
          CheckResult(
            .warn, "invites on \(transport)",
            detail: "allowedInviters names the server \(server), not the bot's own (\(ownServer)): every user there "
              + "can bring the bot into a room of theirs",
            fix: "keep servers you run; name other people by their user id"))
      }
    }
    return results
  }
}
