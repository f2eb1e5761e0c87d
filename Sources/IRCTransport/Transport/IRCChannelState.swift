/// What the bot knows about one channel it is in: who is there and with which member modes (`q`, `a`, `o`, `h`,
/// `v`, …), so a sender's channel status can grant a role (see `IRCPermissions`). Nicks are stored case-folded.
/// NAMES sets a member's modes, MODE changes them, so the role follows both without a reconnect.
struct IRCChannelState: Sendable, Hashable {
  let name: String
  /// folded nick → member mode letters (`o`, `v`, …).
  private(set) var members: [String: Set<Character>] = [:]

  init(name: String) { self.name = name }

  /// Someone joined (no modes yet), or the bot itself.
  mutating func add(_ nick: String) {
    let key = IRCCaseMapping.fold(nick)
    if members[key] == nil { members[key] = [] }
  }

  /// A NAMES entry: the member's modes are the ones it shows (all of them with multi-prefix, else the highest).
  mutating func set(_ nick: String, modes: Set<Character>) {
    members[IRCCaseMapping.fold(nick)] = modes
  }

  mutating func remove(_ nick: String) { members[IRCCaseMapping.fold(nick)] = nil }

  mutating func rename(_ old: String, to new: String) {
    guard let modes = members.removeValue(forKey: IRCCaseMapping.fold(old)) else { return }
    members[IRCCaseMapping.fold(new)] = modes
  }

  mutating func setMode(_ mode: Character, for nick: String, on: Bool) {
    let key = IRCCaseMapping.fold(nick)
    guard members[key] != nil || on else { return }
    if on { members[key, default: []].insert(mode) } else { members[key]?.remove(mode) }
  }

  /// The member modes `nick` holds here; empty when it holds none or is not in the channel.
  func modes(of nick: String) -> Set<Character> { members[IRCCaseMapping.fold(nick)] ?? [] }

  func contains(_ nick: String) -> Bool { members[IRCCaseMapping.fold(nick)] != nil }
}
