import ChatBridge

/// The role the IRC transport itself grants a sender: `admin`/`member` from the configured account names (the
/// IRCv3 `account` tag, i.e. the services account the sender logged in with via SASL or NickServ) or
/// `nick!user@host` masks, and the role the sender's status in the channel gives (`channelRoles`: by default
/// channel operators, half-ops and the higher `q`/`a` modes are admins, voiced users members). The highest of them
/// wins; nil when none applies.
struct IRCPermissions: Sendable, Hashable {
  private var adminAccounts: Set<String> = []
  private var memberAccounts: Set<String> = []
  private var adminMasks: [IRCHostmask] = []
  private var memberMasks: [IRCHostmask] = []
  /// Member mode letter (`o`, `v`, …) → the role it grants in that channel.
  private var channelRoles: [Character: Role]

  /// An entry with `!`, `@`, `*` or `?` is a mask; anything else is an account name.
  init(admins: [String], members: [String], channelRoles: [Character: Role] = IRCTransportConfiguration.defaultRoles) {
    self.channelRoles = channelRoles
    for entry in admins {
      if IRCHostmask.looksLikeMask(entry) {
        adminMasks.append(IRCHostmask(entry))
      } else {
        adminAccounts.insert(IRCCaseMapping.fold(entry))
      }
    }
    for entry in members {
      if IRCHostmask.looksLikeMask(entry) {
        memberMasks.append(IRCHostmask(entry))
      } else {
        memberAccounts.insert(IRCCaseMapping.fold(entry))
      }
    }
  }

  /// - Parameter channelModes: the sender's member modes in the channel the message came from (empty in a query).
  func role(account: String?, source: IRCPrefix, channelModes: Set<Character>) -> Role? {
    [listedRole(account: account, source: source), channelRole(modes: channelModes)].compactMap { $0 }.max()
  }

  /// The highest role any of these member modes grants.
  func channelRole(modes: Set<Character>) -> Role? {
    modes.compactMap { channelRoles[$0] }.max()
  }

  /// The role this transport's `admins`/`members` lists give the sender, wherever they write.
  func listedRole(account: String?, source: IRCPrefix) -> Role? {
    let folded = account.map(IRCCaseMapping.fold)
    let mask = source.description
    if let folded, adminAccounts.contains(folded) { return .admin }
    if adminMasks.contains(where: { $0.matches(mask) }) { return .admin }
    if let folded, memberAccounts.contains(folded) { return .member }
    if memberMasks.contains(where: { $0.matches(mask) }) { return .member }
    return nil
  }
}
