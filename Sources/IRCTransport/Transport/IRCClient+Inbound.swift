import ChatBridge
import Foundation
import Logging

/// Everything the server sends after the connection opens.
extension IRCClient {
  func receive(_ line: String) async {
    connection.keepalive.received(at: clock.now)
    let message: IRCMessage
    do {
      message = try IRCMessage(parsing: line)
    } catch {
      logger.debug("unreadable line ignored", metadata: ["error": "\(error)"])
      return
    }
    if let numeric = message.command.numeric {
      await handleNumeric(numeric, message)
      return
    }
    if let source = message.prefix, !source.isServer, let account = Self.account(of: message),
      !IRCCaseMapping.equal(source.name, connection.registration.currentNick)
    {
      partners.saw(nick: source.name, account: account, at: clock.now)
    }
    // echo-message: the server shows us our own lines as it relayed them, which acknowledges them.
    if message.command == .privmsg || message.command == .notice, let source = message.prefix,
      IRCCaseMapping.equal(source.name, connection.registration.currentNick)
    {
      learnSelf(source)
      await acknowledgeEcho(target: message.parameter(0))
      return
    }
    switch message.command {
    case .ping:
      if let pong = try? IRCMessage(command: .pong, parameters: message.parameters) { await write(pong) }
    case .pong:
      if let token = message.parameters.last { acknowledge(token: token) }
    case .cap: await handleCap(message)
    case .authenticate: await handleAuthenticate(message)
    case .join: await handleJoin(message)
    case .part: handlePart(message)
    case .kick: await handleKick(message)
    case .quit: await handleQuit(message)
    case .nick: await handleNick(message)
    case .account: handleAccount(message)
    case .mode: handleMode(message)
    case .invite: await handleInvite(message)
    case .privmsg: await handlePrivmsg(message)
    case .chghost:
      if let source = message.prefix, IRCCaseMapping.equal(source.name, connection.registration.currentNick) {
        connection.registration.selfUser = message.parameter(0) ?? connection.registration.selfUser
        connection.registration.selfHost = message.parameter(1) ?? connection.registration.selfHost
      }
    case .error:
      // After our own QUIT the ERROR is the goodbye, not a failure.
      if shuttingDown {
        logger.debug("server closes the link", metadata: ["reason": "\(message.parameters.last ?? "")"])
      } else {
        logger.warning("server closes the link", metadata: ["reason": "\(message.parameters.last ?? "")"])
        noteFailure(.serverError(message.parameters.last ?? ""))
      }
    default:
      if let source = message.prefix { learnSelf(source) }
    }
  }

  private func handleNumeric(_ numeric: Int, _ message: IRCMessage) async {
    switch numeric {
    case 1: await didRegister(message)
    case 5:
      connection.registration.support.apply(tokens: message.parameters.dropFirst().dropLast())
      await watchPartners()
    case 730: handleMonitor(online: true, message)
    case 731: handleMonitor(online: false, message)
    case 396:
      // RPL_HOSTHIDDEN: our displayed host changed (cloak, vhost).
      if let host = message.parameter(1) { connection.registration.selfHost = host }
    case 353: handleNames(message)
    case 432, 433, 436, 437: await handleNickRefused(message)
    case 463, 464, 465:
      // Not allowed from this host, a server password is needed, or banned: the ERROR that follows is less clear.
      noteFailure(.rejected(numeric: numeric, message: message.parameters.last ?? ""))
    case 900...908: await handleSASLNumeric(numeric, message)
    case 312, 313, 318: await readServicesWhois(numeric, message)
    case 401, 403, 404, 406, 407, 411, 412, 413, 414, 442:
      sendFailed(numeric: numeric, target: message.parameter(1), reason: message.parameters.last ?? "")
    case 405, 471, 473, 474, 475, 476, 477, 489:
      // Could not join: remember why, so sends to that channel fail with the reason instead of waiting.
      if let channel = message.parameter(1) {
        let folded = IRCCaseMapping.fold(channel)
        connection.membership.joining.remove(folded)
        connection.membership.joinFailures[folded] =
          "cannot join \(channel): \(message.parameters.last ?? "refused") (\(numeric))"
        logger.warning("join refused", metadata: ["channel": "\(channel)", "numeric": "\(numeric)"])
        wakeWriter()
      }
    case 421:
      // A server without CAP: registration goes on with NICK/USER alone, unless SASL is configured.
      if message.parameter(1)?.uppercased() == "CAP" {
        connection.registration.capabilityNegotiationEnded = true
        if let sasl = configuration.sasl {
          disconnectForSASL(.saslUnavailable(mechanism: sasl.mechanism.rawValue, offered: nil))
        }
      }
    default:
      break
    }
  }

  // MARK: Channels

  private func handleJoin(_ message: IRCMessage) async {
    guard let source = message.prefix, let channel = message.parameter(0) else { return }
    let folded = IRCCaseMapping.fold(channel)
    if IRCCaseMapping.equal(source.name, connection.registration.currentNick) {
      learnSelf(source)
      connection.membership.joining.remove(folded)
      connection.membership.joinFailures[folded] = nil
      wishes.welcomed(to: channel)
      var state = IRCChannelState(name: channel)
      state.add(connection.registration.currentNick)
      connection.membership.channels[folded] = state
      logger.info("joined", metadata: ["channel": "\(channel)"])
      wakeWriter()
    } else {
      connection.membership.channels[folded]?.add(source.name)
    }
  }

  private func handlePart(_ message: IRCMessage) {
    guard let source = message.prefix, let channel = message.parameter(0) else { return }
    let folded = IRCCaseMapping.fold(channel)
    if IRCCaseMapping.equal(source.name, connection.registration.currentNick) {
      connection.membership.channels[folded] = nil
    } else {
      connection.membership.channels[folded]?.remove(source.name)
    }
  }

  private func handleKick(_ message: IRCMessage) async {
    guard let channel = message.parameter(0), let nick = message.parameter(1) else { return }
    let folded = IRCCaseMapping.fold(channel)
    guard IRCCaseMapping.equal(nick, connection.registration.currentNick) else {
      connection.membership.channels[folded]?.remove(nick)
      return
    }
    connection.membership.channels[folded] = nil
    logger.warning("kicked", metadata: ["channel": "\(channel)", "by": "\(message.sourceNick ?? "?")"])
    let configured = configuration.channels.contains { IRCCaseMapping.equal($0.name, channel) }
    if configuration.rejoinOnKick && configured {
      await join(channel)
    } else {
      wishes.kicked(from: channel)
      wakeWriter()
      emit(
        .membership(
          MembershipChange(
            transport: configuration.name, room: folded, kind: .kicked, by: message.sourceNick,
            reason: message.parameter(2))))
    }
  }

  private func handleQuit(_ message: IRCMessage) async {
    guard let source = message.prefix else { return }
    for key in connection.membership.channels.keys { connection.membership.channels[key]?.remove(source.name) }
    end(partners.left(nick: source.name, reason: "\(source.name) quit"))
    if IRCCaseMapping.equal(source.name, configuration.nick) {
      await reclaimNickIfDue(now: clock.now, force: true)
    }
  }

  private func handleNick(_ message: IRCMessage) async {
    guard let source = message.prefix, let new = message.parameter(0) else { return }
    if IRCCaseMapping.equal(source.name, connection.registration.currentNick) {
      connection.registration.currentNick = new
      logger.info("nick changed", metadata: ["nick": "\(new)"])
    }
    for key in connection.membership.channels.keys { connection.membership.channels[key]?.rename(source.name, to: new) }
    end(partners.renamed(from: source.name, to: new))
    await watchPartners()
    if IRCCaseMapping.equal(source.name, configuration.nick) && !IRCCaseMapping.equal(new, configuration.nick) {
      await reclaimNickIfDue(now: clock.now, force: true)
    }
  }

  /// `353 me = #chan :@op +voice plain` (several prefixes each with multi-prefix): each member's modes as shown.
  private func handleNames(_ message: IRCMessage) {
    guard message.parameters.count >= 4, let channel = message.parameter(2) else { return }
    let folded = IRCCaseMapping.fold(channel)
    guard connection.membership.channels[folded] != nil else { return }
    let symbols = connection.registration.support.prefixSymbols
    for entry in (message.parameters.last ?? "").split(separator: " ") {
      var name = Substring(entry)
      var modes: Set<Character> = []
      while let first = name.first, symbols.contains(first) {
        if let mode = connection.registration.support.mode(forSymbol: first) { modes.insert(mode) }
        name = name.dropFirst()
      }
      // userhost-in-names: keep the nick only.
      let nick = name.split(separator: "!", maxSplits: 1).first.map(String.init) ?? String(name)
      if !nick.isEmpty { connection.membership.channels[folded]?.set(nick, modes: modes) }
    }
  }

  /// `MODE #chan +o-v alice bob`: member modes change the role a member's channel status grants.
  private func handleMode(_ message: IRCMessage) {
    guard let target = message.parameter(0), IRCChannelName.isChannel(target) else { return }
    let folded = IRCCaseMapping.fold(target)
    guard connection.membership.channels[folded] != nil, let modes = message.parameter(1) else { return }
    var arguments = message.parameters.dropFirst(2).makeIterator()
    var adding = true
    for mode in modes {
      switch mode {
      case "+": adding = true
      case "-": adding = false
      default:
        if connection.registration.support.isMemberMode(mode) {
          if let nick = arguments.next() {
            connection.membership.channels[folded]?.setMode(mode, for: nick, on: adding)
          }
        } else if connection.registration.support.alwaysParameter.contains(mode)
          || (adding && connection.registration.support.parameterWhenSet.contains(mode))
        {
          _ = arguments.next()
        }
      }
    }
  }

  private func handleInvite(_ message: IRCMessage) async {
    guard let channel = message.parameter(1) else { return }
    guard configuration.channels.contains(where: { IRCCaseMapping.equal($0.name, channel) }) else {
      logger.info("invite ignored", metadata: ["channel": "\(channel)", "by": "\(message.sourceNick ?? "?")"])
      return
    }
    let folded = IRCCaseMapping.fold(channel)
    wishes.welcomed(to: channel)
    connection.membership.joinFailures[folded] = nil
    await join(channel)
  }

  // MARK: Messages for the bot

  private func handlePrivmsg(_ message: IRCMessage) async {
    guard let source = message.prefix, !source.isServer, message.parameters.count >= 2,
      let target = message.parameter(0), let raw = message.parameters.last
    else { return }
    // echo-message sends our own lines back: they are not commands.
    if IRCCaseMapping.equal(source.name, connection.registration.currentNick) {
      learnSelf(source)
      return
    }
    // CTCP: VERSION, PING, TIME and CLIENTINFO are answered; ACTION and the rest are not for the command parser.
    if raw.hasPrefix("\u{01}") {
      await handleCTCP(raw, from: source)
      return
    }
    let line = IRCTextSanitizer.singleLine(IRCTextSanitizer.stripFormatting(raw))
    guard !line.isEmpty else { return }
    let (text, addressed) = Self.address(line, nick: connection.registration.currentNick)
    let casually = addressed && line.dropFirst(connection.registration.currentNick.count).first == " "
    let isChannel = IRCChannelName.isChannel(target)
    let account = Self.account(of: message)
    let room = isChannel ? IRCCaseMapping.fold(target) : IRCQueryPartners.room(nick: source.name, account: account)
    if !isChannel {
      if account == nil { partners.follow(nickRoom: source.name) }
      await watchPartners()
    }
    let modes = isChannel ? (connection.membership.channels[room]?.modes(of: source.name) ?? []) : []
    let role = permissions.role(account: account, source: source, channelModes: modes)
    incomingCounter += 1
    emit(
      .message(
        IncomingMessage(
          transport: configuration.name, room: room, senderID: account ?? source.description,
          senderName: source.name, text: text, messageID: message.tags["msgid"] ?? "irc-\(incomingCounter)",
          isDirect: !isChannel, transportRole: role,
          configuredRole: permissions.listedRole(account: account, source: source), addressed: addressed,
          addressedCasually: casually)))
  }

  /// How people address a bot on IRC: its current nick (any case), then `:`, `,` or a space, then the words for it
  /// (`awfulbot_: status`, `awfulbot, help`, `awfulbot help`). Returns the words without the address and whether the
  /// line was addressed; a line that is only the nick, or where the nick runs on (`awfulbot_s`), is not.
  static func address(_ line: String, nick: String) -> (text: String, addressed: Bool) {
    let nickCount = nick.count
    guard !nick.isEmpty, line.count > nickCount, IRCCaseMapping.equal(String(line.prefix(nickCount)), nick) else {
      return (line, false)
    }
    let rest = line.dropFirst(nickCount)
    guard let separator = rest.first, separator == ":" || separator == "," || separator == " " else {
      return (line, false)
    }
    let words = rest.dropFirst().drop(while: { $0 == " " })
    guard !words.isEmpty else { return (line, false) }
    return (String(words), true)
  }

  // MARK: Private-message partners

  /// The services account a line carries (`account` tag); nil when logged out or not said.
  static func account(of message: IRCMessage) -> String? {
    message.tags["account"].flatMap { $0 == "*" || $0.isEmpty ? nil : $0 }
  }

  /// `:nick!u@h ACCOUNT name` (account-notify): `*` is a logout.
  private func handleAccount(_ message: IRCMessage) {
    guard let source = message.prefix, !source.isServer, let name = message.parameter(0),
      !IRCCaseMapping.equal(source.name, connection.registration.currentNick)
    else { return }
    partners.accountChanged(nick: source.name, to: name == "*" ? nil : name, at: clock.now)
  }

  /// `730 me :nick!u@h,…` (online) and `731 me :nick,…` (offline) for the nicks MONITOR watches.
  private func handleMonitor(online: Bool, _ message: IRCMessage) {
    for target in (message.parameters.last ?? "").split(separator: ",") {
      let nick = String(target.prefix { $0 != "!" })
      if online {
        partners.online.insert(IRCCaseMapping.fold(nick))
      } else {
        end(partners.left(nick: nick, reason: "\(nick) went offline"))
      }
    }
  }

  /// Asks the server to watch the nicks that reach an account or hold a query room (where it has MONITOR, within
  /// its limit), so their leaving is seen even when they share no channel with the bot.
  func watchPartners() async {
    guard connection.registration.registered, let limit = connection.registration.support.monitorLimit else { return }
    let unwanted = partners.unwanted()
    if !unwanted.isEmpty,
      let line = try? IRCMessage(command: .monitor, parameters: ["-", unwanted.joined(separator: ",")])
    {
      partners.monitored.subtract(unwanted)
      await write(line)
    }
    let room = max(0, limit - partners.monitored.count)
    let nicks = Array(partners.unmonitored().prefix(room))
    guard !nicks.isEmpty,
      let line = try? IRCMessage(command: .monitor, parameters: ["+", nicks.joined(separator: ",")])
    else { return }
    for nick in nicks { partners.monitored.insert(IRCCaseMapping.fold(nick)) }
    await write(line)
  }

  /// A query room whose nick is gone: the engine pauses it (as for a kick), so whoever takes the nick next gets none
  /// of what it follows until someone allowed to says `resume` there.
  private func end(_ departure: IRCQueryPartners.Departure?) {
    guard let departure else { return }
    logger.info("query partner gone", metadata: ["room": "\(departure.room)", "reason": "\(departure.reason)"])
    emit(
      .membership(
        MembershipChange(
          transport: configuration.name, room: departure.room, kind: .partnerLeft, reason: departure.reason)))
  }
}
