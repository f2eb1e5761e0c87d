extension IRCClient {
  /// Applies the settings that can change on a live connection: the channels (joins the added ones, parts the
  /// removed ones, leaves the others alone), who is an admin or a member, what channel status grants, and whether
  /// to rejoin after a kick. Everything else stays as it was; the caller reports those keys as needing a restart.
  /// Returns one sentence per change.
  func reconfigure(to next: IRCTransportConfiguration) async -> [String] {
    var changes: [String] = []
    let before = configuration
    configuration.channels = next.channels
    configuration.rejoinOnKick = next.rejoinOnKick
    configuration.admins = next.admins
    configuration.members = next.members
    configuration.channelRoles = next.channelRoles
    if before.admins != next.admins || before.members != next.members || before.channelRoles != next.channelRoles {
      permissions = IRCPermissions(
        admins: next.admins, members: next.members, channelRoles: next.channelRoles)
      changes.append("IRC roles replaced (admins, members, channel status)")
    }
    if before.rejoinOnKick != next.rejoinOnKick {
      changes.append("rejoin after a kick \(next.rejoinOnKick ? "on" : "off")")
    }
    let oldNames = Set(before.channels.map { IRCCaseMapping.fold($0.name) })
    let newNames = Set(next.channels.map { IRCCaseMapping.fold($0.name) })
    for channel in next.channels where !oldNames.contains(IRCCaseMapping.fold(channel.name)) {
      let folded = IRCCaseMapping.fold(channel.name)
      wishes.added(channel.name)
      connection.membership.joinFailures[folded] = nil
      if connection.registration.registered { await join(channel.name) }
      changes.append("joining \(channel.name)")
    }
    for channel in before.channels where !newNames.contains(IRCCaseMapping.fold(channel.name)) {
      let folded = IRCCaseMapping.fold(channel.name)
      // Sends to a channel the config no longer names fail rather than joining it again behind the operator's back.
      wishes.removed(channel.name)
      connection.membership.joining.remove(folded)
      if connection.membership.channels[folded] != nil || connection.registration.registered,
        let part = try? IRCMessage(command: .part, parameters: [channel.name, "removed from the bot's config"])
      {
        await write(part)
      }
      connection.membership.channels[folded] = nil
      wakeWriter()
      changes.append("leaving \(channel.name)")
    }
    return changes
  }
}
