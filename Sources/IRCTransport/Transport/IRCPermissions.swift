import ChatBridge

/// The role the IRC transport itself grants a sender: `admin`/`member` from the configured account names (the
/// IRCv3 `account` tag, i.e. the services account the sender logged in with via SASL or NickServ) or
/// `nick!user@host` masks, and `member` for a channel operator in that channel. nil when none applies.
struct IRCPermissions: Sendable, Hashable {
  private var adminAccounts: Set<String> = []
  private var memberAccounts: Set<String> = []
  private var adminMasks: [IRCHostmask] = []
  private var memberMasks: [IRCHostmask] = []

  /// An entry with `!`, `@`, `*` or `?` is a mask; anything else is an account name.
  init(admins: [String], members: [String]) {
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

  func role(account: String?, source: IRCPrefix, isChannelOperator: Bool) -> Role? {
    let folded = account.map(IRCCaseMapping.fold)
    let mask = source.description
    if let folded, adminAccounts.contains(folded) { return .admin }
    if adminMasks.contains(where: { $0.matches(mask) }) { return .admin }
    if let folded, memberAccounts.contains(folded) { return .member }
    if memberMasks.contains(where: { $0.matches(mask) }) { return .member }
    return isChannelOperator ? .member : nil
  }
}
