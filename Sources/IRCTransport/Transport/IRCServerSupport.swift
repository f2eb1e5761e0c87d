/// What the server announced in RPL_ISUPPORT (005) that the transport needs: which modes are channel-member
/// prefixes (`PREFIX=(ov)@+`), which channel modes take a parameter (`CHANMODES=beI,k,l,imnpst`).
struct IRCServerSupport: Sendable, Hashable {
  /// Member mode letter → prefix symbol, highest first (`o` → `@`, `v` → `+`).
  var prefixModes: [(mode: Character, symbol: Character)] = [("o", "@"), ("v", "+")]
  /// List modes (type A) and modes that always take a parameter (type B).
  var alwaysParameter: Set<Character> = ["b", "e", "I", "k"]
  /// Modes that take a parameter only when set (type C).
  var parameterWhenSet: Set<Character> = ["l"]
  /// How many nicks the server watches for the bot (`MONITOR=100`); nil when it has no MONITOR.
  var monitorLimit: Int?

  static func == (lhs: IRCServerSupport, rhs: IRCServerSupport) -> Bool {
    lhs.prefixModes.map { "\($0.mode)\($0.symbol)" } == rhs.prefixModes.map { "\($0.mode)\($0.symbol)" }
      && lhs.alwaysParameter == rhs.alwaysParameter && lhs.parameterWhenSet == rhs.parameterWhenSet
      && lhs.monitorLimit == rhs.monitorLimit
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(prefixModes.map { "\($0.mode)\($0.symbol)" })
  }

  var prefixSymbols: Set<Character> { Set(prefixModes.map(\.symbol)) }

  func mode(forSymbol symbol: Character) -> Character? {
    prefixModes.first { $0.symbol == symbol }?.mode
  }

  func isMemberMode(_ mode: Character) -> Bool {
    prefixModes.contains { $0.mode == mode }
  }

  /// Reads the tokens of one 005 line (`PREFIX=(qaohv)~&@%+`, `CHANMODES=…`); unknown tokens are ignored.
  mutating func apply(tokens: ArraySlice<String>) {
    for token in tokens {
      if token.hasPrefix("PREFIX=") {
        let value = token.dropFirst("PREFIX=".count)
        guard value.first == "(", let close = value.firstIndex(of: ")") else { continue }
        let modes = Array(value[value.index(after: value.startIndex)..<close])
        let symbols = Array(value[value.index(after: close)...])
        guard modes.count == symbols.count else { continue }
        prefixModes = Array(zip(modes, symbols)).map { (mode: $0.0, symbol: $0.1) }
      } else if token == "MONITOR" || token.hasPrefix("MONITOR=") {
        // No number: no limit the server states; a hundred is what common servers allow. Never below 0: the room
        // left is `limit - watched`, which `MONITOR=-9223372036854775808` would overflow.
        monitorLimit = max(Int(token.dropFirst("MONITOR=".count)) ?? 100, 0)
      } else if token.hasPrefix("CHANMODES=") {
        let groups = token.dropFirst("CHANMODES=".count).split(separator: ",", omittingEmptySubsequences: false)
        guard groups.count >= 3 else { continue }
        alwaysParameter = Set(groups[0]).union(groups[1])
        parameterWhenSet = Set(groups[2])
      }
    }
  }
}
