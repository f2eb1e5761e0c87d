import Foundation

/// Who the bot's private-message rooms reach. A nick is not a person: whoever takes it after its owner left would get
/// what that query room follows. So a query from someone logged in to services (the `account` tag) is the room
/// `account:<name>`, sent to the nick that account was last seen under while that nick is still known to be theirs;
/// a query without an account is the nick's room, and it ends when the nick is seen to go (QUIT, NICK, MONITOR's
/// offline), so the room is paused before anyone else can take the nick.
struct IRCQueryPartners: Sendable {
  static let accountPrefix = "account:"
  /// How long a nick not visible in a shared channel or through MONITOR still counts as its account's, after its
  /// last line: long enough to answer a command, too short to hand a later owner of the nick what came since.
  static let unseenGrace = Duration.seconds(60)

  struct Binding: Sendable {
    var nick: String
    var lastSeen: ContinuousClock.Instant
  }

  /// A direct room whose other side is gone, and why.
  struct Departure: Sendable, Equatable {
    var room: String
    var reason: String
  }

  /// Folded account → the nick it was last seen under.
  private(set) var bindings: [String: Binding] = [:]
  /// Folded nick → the room (the nick as it wrote) of a query without an account.
  private(set) var nickRooms: [String: String] = [:]
  /// Folded nicks the server watches for the bot (MONITOR), and those it reports online.
  var monitored: Set<String> = []
  var online: Set<String> = []

  /// The room of a query: by account when the line carries one, else the nick.
  static func room(nick: String, account: String?) -> String {
    account.map { accountPrefix + IRCCaseMapping.fold($0) } ?? nick
  }

  /// The account a room names (`account:alice`), nil for a nick or a channel.
  static func account(inRoom room: String) -> String? {
    guard room.hasPrefix(accountPrefix), room.count > accountPrefix.count else { return nil }
    return IRCCaseMapping.fold(String(room.dropFirst(accountPrefix.count)))
  }

  /// A line from `nick` logged in as `account`.
  mutating func saw(nick: String, account: String, at now: ContinuousClock.Instant) {
    let folded = IRCCaseMapping.fold(account)
    // One nick speaks for one account: a nick now logged in elsewhere no longer reaches the old one.
    for (other, binding) in bindings where other != folded && IRCCaseMapping.equal(binding.nick, nick) {
      bindings[other] = nil
    }
    bindings[folded] = Binding(nick: nick, lastSeen: now)
  }

  /// A room that is a nick (a query without an account, or a nick the config names): it ends when the nick goes.
  mutating func follow(nickRoom nick: String) {
    nickRooms[IRCCaseMapping.fold(nick)] = nick
  }

  /// The nick an account's room is sent to now, if it is still known to be theirs: visible in a shared channel or
  /// online by MONITOR since it was seen logged in, or seen within `unseenGrace`.
  func nick(forAccount account: String, visible: (String) -> Bool, now: ContinuousClock.Instant) -> String? {
    guard let binding = bindings[IRCCaseMapping.fold(account)] else { return nil }
    if visible(binding.nick) || online.contains(IRCCaseMapping.fold(binding.nick)) { return binding.nick }
    return now - binding.lastSeen <= Self.unseenGrace ? binding.nick : nil
  }

  /// The nick left the network (QUIT, or MONITOR says offline): no account is reached through it any more, and its
  /// query room ends.
  mutating func left(nick: String, reason: String) -> Departure? {
    let folded = IRCCaseMapping.fold(nick)
    online.remove(folded)
    bindings = bindings.filter { !IRCCaseMapping.equal($0.value.nick, nick) }
    return nickRooms.removeValue(forKey: folded).map { Departure(room: $0, reason: reason) }
  }

  /// The nick changed on the same connection: an account follows its owner; a nick's query room ends (the old nick
  /// is free for anyone).
  mutating func renamed(from old: String, to new: String) -> Departure? {
    for (account, binding) in bindings where IRCCaseMapping.equal(binding.nick, old) {
      bindings[account]?.nick = new
    }
    online.remove(IRCCaseMapping.fold(old))
    return nickRooms.removeValue(forKey: IRCCaseMapping.fold(old)).map {
      Departure(room: $0, reason: "\(old) is now known as \(new)")
    }
  }

  /// `ACCOUNT` (account-notify): the nick logged out (nil) or into another account.
  mutating func accountChanged(nick: String, to account: String?, at now: ContinuousClock.Instant) {
    bindings = bindings.filter { !IRCCaseMapping.equal($0.value.nick, nick) }
    if let account { saw(nick: nick, account: account, at: now) }
  }

  /// Nicks worth watching (bound to an account, or holding a query room) that the server does not watch yet.
  func unmonitored() -> [String] {
    let wanted = bindings.values.map(\.nick) + Array(nickRooms.values)
    var seen: Set<String> = []
    return wanted.filter {
      seen.insert(IRCCaseMapping.fold($0)).inserted && !monitored.contains(IRCCaseMapping.fold($0))
    }
  }

  /// Nicks the server watches that nothing needs any more (their room ended, their account moved on): taken off the
  /// list so it keeps room for new ones.
  func unwanted() -> [String] {
    let wanted = Set((bindings.values.map(\.nick) + Array(nickRooms.values)).map(IRCCaseMapping.fold))
    return monitored.subtracting(wanted).sorted()
  }

  /// The partners for a new connection: a new value that keeps only the nicks' query rooms (such a room ends when
  /// its nick is seen to go, not with a connection), so nothing seen on the last connection (which nick an account
  /// uses, what MONITOR watches and reports) still holds, including any field added later.
  func forNewConnection() -> IRCQueryPartners {
    var next = IRCQueryPartners()
    next.nickRooms = nickRooms
    return next
  }
}
