/// What the bot knows about one channel it is in: who is there and with which member modes (to grant channel
/// operators the `member` role). Nicks are stored case-folded.
struct IRCChannelState: Sendable, Hashable {
  let name: String
  /// folded nick → member mode letters (`o`, `v`, …).
  private(set) var members: [String: Set<Character>] = [:]

  init(name: String) { self.name = name }

  mutating func add(_ nick: String, modes: Set<Character> = []) {
    members[IRCCaseMapping.fold(nick), default: []].formUnion(modes)
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

  func isOperator(_ nick: String) -> Bool {
    // Half-ops and above (q, a, o) count as channel operators; voice does not.
    guard let modes = members[IRCCaseMapping.fold(nick)] else { return false }
    return !modes.isDisjoint(with: ["q", "a", "o"])
  }

  func contains(_ nick: String) -> Bool { members[IRCCaseMapping.fold(nick)] != nil }
}
