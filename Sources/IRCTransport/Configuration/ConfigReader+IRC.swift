import ChatBridge

/// The IRC configuration's own shapes, read where they stand so a problem names the item (`channels[1].key`).
extension ConfigReader where Key == IRCTransportConfiguration.CodingKeys {
  /// `channels`: names, or `{"name", "key"}`; each checked where it stands, a malformed one left out.
  func channels() -> [IRCTransportConfiguration.Channel] {
    guard let value = raw(.channels) else { return [] }
    guard case .array(let items) = value else {
      report("channels", "expected a list of channels, got \(value.kindName)")
      return []
    }
    var channels: [IRCTransportConfiguration.Channel] = []
    for (index, item) in items.enumerated() {
      let key = "channels[\(index)]"
      var channel: IRCTransportConfiguration.Channel
      var nameKey = key
      switch item {
      case .string(let name):
        channel = .init(name: name)
      case .object(let members):
        for member in members.keys.sorted() where !["name", "key"].contains(member) && !member.hasPrefix("_") {
          report("\(key).\(member)", "unknown key (a channel has a name and a key)")
        }
        nameKey = "\(key).name"
        guard case .string(let name)? = members["name"] else {
          report(nameKey, members["name"].map { "expected a string, got \($0.kindName)" } ?? "missing")
          continue
        }
        channel = .init(name: name)
        switch members["key"] {
        case nil, .null?: break
        case .string(let channelKey)?: channel.key = channelKey
        case let other?:
          report("\(key).key", "expected a string, got \(other.kindName)")
          continue
        }
      default:
        report(key, "expected a channel name or {\"name\", \"key\"}, got \(item.kindName)")
        continue
      }
      take(IRCTransportConfiguration.problems(of: channel, at: key, nameKey: nameKey))
      channels.append(channel)
    }
    return channels
  }

  /// `channelRoles`: mode letter → role, by name in any case (`Role(name:)`); notes (`_comment`) left out, an entry
  /// that is not a mode letter and a role reported and left out. nil: the default.
  func channelRoles() -> [Character: Role]? {
    guard let value = raw(.channelRoles) else { return nil }
    guard case .object(let entries) = value else {
      report("channelRoles", "expected an object of mode letters to roles, like {\"o\": \"admin\", \"v\": \"member\"}")
      return nil
    }
    var roles: [Character: Role] = [:]
    for (letter, written) in entries.sorted(by: { $0.key < $1.key }) where !letter.hasPrefix("_") {
      let key = "channelRoles.\(letter)"
      let mode = letter.count == 1 ? letter.first : nil
      if mode.map(IRCTransportConfiguration.isModeLetter) != true {
        report(key, "expected a channel member mode letter (q, a, o, h, v)")
      }
      let role: Role?
      switch written {
      case .string(let name):
        role = Role(name: name)
        if role == nil { report(key, "expected admin, member or viewer, got \"\(name)\"") }
      default:
        role = nil
        report(key, "expected admin, member or viewer, got \(written.kindName)")
      }
      if let mode, IRCTransportConfiguration.isModeLetter(mode), let role { roles[mode] = role }
    }
    return roles
  }

  /// `sasl`: `mechanism` (PLAIN or EXTERNAL), `account`, `password`. nil when absent or malformed (reported).
  func sasl() -> IRCTransportConfiguration.SASL? {
    guard let value = raw(.sasl) else { return nil }
    guard case .object(let members) = value else {
      report("sasl", "expected an object, got \(value.kindName)")
      return nil
    }
    let before = problems.count
    for member in members.keys.sorted() where !["mechanism", "account", "password"].contains(member) {
      if !member.hasPrefix("_") { report("sasl.\(member)", "unknown key (mechanism, account, password)") }
    }
    var sasl = IRCTransportConfiguration.SASL()
    for (member, value) in members.sorted(by: { $0.key < $1.key }) where value != .null {
      guard case .string(let text) = value else {
        if ["mechanism", "account", "password"].contains(member) {
          report("sasl.\(member)", "expected a string, got \(value.kindName)")
        }
        continue
      }
      switch member {
      case "mechanism":
        guard let mechanism = IRCTransportConfiguration.SASL.Mechanism(rawValue: text) else {
          report("sasl.mechanism", "expected PLAIN or EXTERNAL, got \"\(text)\"")
          continue
        }
        sasl.mechanism = mechanism
      case "account": sasl.account = text
      case "password": sasl.password = text
      default: break
      }
    }
    return problems.count == before ? sasl : nil
  }
}
