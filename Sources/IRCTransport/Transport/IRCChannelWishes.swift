/// The channels a send must not join by itself, kept across connections (case-folded names): those the bot was
/// kicked from (a kick is not undone by reconnecting; an invite or a rejoin lifts it) and those a reloaded config
/// removed (parted; a send there fails rather than joining again behind the operator's back). What one connection
/// learns about its channels is `IRCChannelMembership`, made new with it.
struct IRCChannelWishes: Sendable {
  private(set) var kickedFrom: Set<String> = []
  private(set) var left: Set<String> = []

  /// Why a send to `channel` must not join it, nil when it may.
  func refusal(_ channel: String) -> String? {
    let folded = IRCCaseMapping.fold(channel)
    if left.contains(folded) { return "the bot left \(channel): the config no longer names it" }
    if kickedFrom.contains(folded) { return "kicked from \(channel); invite the bot to send there again" }
    return nil
  }

  mutating func kicked(from channel: String) { kickedFrom.insert(IRCCaseMapping.fold(channel)) }

  /// The bot is in the channel again, or was invited back: the kick no longer holds.
  mutating func welcomed(to channel: String) { kickedFrom.remove(IRCCaseMapping.fold(channel)) }

  /// A reloaded config names the channel (again): neither a kick nor an earlier removal holds.
  mutating func added(_ channel: String) {
    let folded = IRCCaseMapping.fold(channel)
    left.remove(folded)
    kickedFrom.remove(folded)
  }

  /// A reloaded config no longer names the channel.
  mutating func removed(_ channel: String) { left.insert(IRCCaseMapping.fold(channel)) }
}
