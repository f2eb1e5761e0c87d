import ChatBridge
import Foundation
import Logging

/// Registration: `CAP LS 302`, the wanted capabilities, SASL, NICK/USER, then after 001 NickServ (when configured)
/// and the channel joins. With SASL configured the bot never registers without it: a refused login, or a network
/// without SASL, ends the connection (and, before the first registration, the transport: see `IRCTransportError`).
/// A `nickServPassword` alone is used for SASL PLAIN where the server offers it, and else sent to NickServ only once
/// the network showed NickServ is its services (`IRCServicesCheck`).
extension IRCClient {
  /// Capabilities the transport uses when the server offers them.
  static let wantedCapabilities = [
    "server-time", "message-tags", "account-tag", "account-notify", "echo-message", "multi-prefix",
  ]

  func startRegistration() async {
    await send(.cap, ["LS", "302"], charged: false)
    await send(.nick, [configuration.nick], charged: false)
    let realname = IRCTextSanitizer.singleLine(configuration.realname)
    await send(
      .user, [configuration.effectiveUsername, "0", "*", realname.isEmpty ? "AwfulBot" : realname], charged: false)
  }

  // MARK: CAP

  func handleCap(_ message: IRCMessage) async {
    guard let subcommand = message.parameter(1)?.uppercased() else { return }
    switch subcommand {
    case "LS":
      // `CAP * LS * :caps…` continues on the next line; `CAP * LS :caps…` is the last one.
      let isContinued = message.parameters.count >= 4 && message.parameter(2) == "*"
      for token in (message.parameters.last ?? "").split(separator: " ") {
        let parts = token.split(separator: "=", maxSplits: 1)
        connection.registration.offeredCaps[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
      }
      if !isContinued && !connection.registration.capabilityNegotiationEnded
        && connection.registration.pendingCapReplies == 0
      {
        await requestCapabilities()
      }
    case "ACK":
      for token in (message.parameters.last ?? "").split(separator: " ") {
        let name = token.hasPrefix("-") ? String(token.dropFirst()) : String(token)
        if token.hasPrefix("-") {
          connection.registration.enabledCaps.remove(name)
        } else {
          connection.registration.enabledCaps.insert(name)
        }
      }
      await capReplyArrived()
    case "NAK":
      logger.info("capabilities refused", metadata: ["caps": "\(message.parameters.last ?? "")"])
      await capReplyArrived()
    case "NEW", "DEL":
      // cap-notify: nothing to renegotiate mid-connection for the capabilities the bot uses.
      break
    default:
      break
    }
  }

  /// One `CAP REQ` per capability, so a refusal of one does not cost the others.
  private func requestCapabilities() async {
    if let sasl = configuration.sasl, !wantsSASL {
      disconnectForSASL(
        .saslUnavailable(mechanism: sasl.mechanism.rawValue, offered: connection.registration.offeredCaps["sasl"]))
      return
    }
    var wanted = Self.wantedCapabilities.filter { connection.registration.offeredCaps[$0] != nil }
    connection.registration.saslOpportunistic = configuration.sasl == nil && wantsSASL
    if wantsSASL { wanted.insert("sasl", at: 0) }
    if connection.registration.offeredCaps["chghost"] != nil { wanted.append("chghost") }
    guard !wanted.isEmpty else {
      await endCapabilityNegotiation()
      return
    }
    connection.registration.pendingCapReplies = wanted.count
    for capability in wanted {
      await send(.cap, ["REQ", capability], charged: false)
    }
  }

  /// SASL is configured (or `nickServPassword` may be used for it) and the server offers the mechanism (or does not
  /// list mechanisms).
  private var wantsSASL: Bool {
    guard let sasl = saslCredentials, let offered = connection.registration.offeredCaps["sasl"] else { return false }
    if offered.isEmpty { return true }
    return offered.split(separator: ",").contains { $0.uppercased() == sasl.mechanism.rawValue }
  }

  private func capReplyArrived() async {
    guard connection.registration.pendingCapReplies > 0 else { return }
    connection.registration.pendingCapReplies -= 1
    guard connection.registration.pendingCapReplies == 0 else { return }
    if let sasl = configuration.sasl {
      guard connection.registration.enabledCaps.contains("sasl") else {
        // The server listed SASL, then refused the capability (services went away in between).
        disconnectForSASL(.saslUnavailable(mechanism: sasl.mechanism.rawValue, offered: nil))
        return
      }
      connection.registration.saslInProgress = true
      await send(.authenticate, [sasl.mechanism.rawValue], charged: false)
    } else if connection.registration.saslOpportunistic, connection.registration.enabledCaps.contains("sasl") {
      connection.registration.saslInProgress = true
      await send(.authenticate, [IRCTransportConfiguration.SASL.Mechanism.plain.rawValue], charged: false)
    } else {
      await endCapabilityNegotiation()
    }
  }

  /// SASL is configured but cannot log the bot in on this connection: remember why and close it, rather than
  /// register under the nick without the account (where channel access lists and NickServ would not know it).
  func disconnectForSASL(_ failure: IRCConnectionFailure) {
    noteFailure(failure)
    connection.registration.saslInProgress = false
    logger.error(
      "SASL login failed, disconnecting",
      metadata: ["account": "\(configuration.sasl?.account ?? configuration.nick)", "reason": "\(failure)"])
    connection.link?.channel.close(promise: nil)
  }

  func endCapabilityNegotiation() async {
    guard !connection.registration.capabilityNegotiationEnded else { return }
    connection.registration.capabilityNegotiationEnded = true
    connection.registration.saslInProgress = false
    await send(.cap, ["END"], charged: false)
  }

  // MARK: SASL

  /// `AUTHENTICATE +` (InspIRCd sends `AUTHENTICATE :+`, the same after parsing) asks for the payload.
  func handleAuthenticate(_ message: IRCMessage) async {
    guard connection.registration.saslInProgress, message.parameter(0) == "+", let sasl = saslCredentials else {
      return
    }
    let payload: String
    switch sasl.mechanism {
    case .plain:
      let account = sasl.account ?? ""
      let password = sasl.password ?? ""
      payload = Data("\(account)\0\(account)\0\(password)".utf8).base64EncodedString()
    case .external:
      payload = ""
    }
    // Payloads go in 400-byte pieces; a last piece of exactly 400 bytes (or an empty payload) is followed by "+".
    var rest = Substring(payload)
    while !rest.isEmpty {
      let piece = rest.prefix(400)
      rest = rest.dropFirst(piece.count)
      await send(.authenticate, [String(piece)], charged: false)
      if rest.isEmpty && piece.count < 400 { return }
    }
    await send(.authenticate, ["+"], charged: false)
  }

  /// 900 logged in, 903 success, 907 already logged in; 902/904/905/906 failure or abort, 908 the mechanisms the
  /// server offers instead (the configured one is not among them).
  func handleSASLNumeric(_ numeric: Int, _ message: IRCMessage) async {
    if connection.registration.saslOpportunistic, [902, 904, 905, 906, 908].contains(numeric) {
      await saslWithNickServPasswordFailed(numeric, message)
      return
    }
    switch numeric {
    case 900:
      connection.registration.loggedInAccount = message.parameter(2)
      if let prefix = message.parameter(1).flatMap({ try? IRCPrefix(parsing: Substring($0)) }) { learnSelf(prefix) }
    case 903:
      connection.registration.saslSucceeded = true
      logger.info(
        "SASL authentication succeeded", metadata: ["account": "\(connection.registration.loggedInAccount ?? "?")"])
      await endCapabilityNegotiation()
    case 907:
      connection.registration.saslSucceeded = true
      await endCapabilityNegotiation()
    case 902, 904, 905, 906:
      disconnectForSASL(.saslFailed(numeric: numeric, message: message.parameters.last ?? ""))
    case 908:
      let offered = message.parameter(1) ?? ""
      disconnectForSASL(.saslFailed(numeric: numeric, message: "the server offers \(offered)"))
    default:
      break
    }
  }

  // MARK: Nick

  /// 432/433/436/437 during registration: the next alternate nick, then the configured nick with digits.
  func handleNickRefused(_ message: IRCMessage) async {
    guard !connection.registration.registered else { return }
    connection.registration.nickAttempt += 1
    connection.registration.refusedNicks.append(connection.registration.currentNick)
    let alternates = configuration.alternateNicks
    let next: String
    if connection.registration.nickAttempt <= alternates.count {
      next = alternates[connection.registration.nickAttempt - 1]
    } else {
      let base = String(configuration.nick.prefix(24))
      next = base + "_" + String(Int.random(in: 100...99_999))
    }
    connection.registration.currentNick = next
    logger.info("nick in use, trying another", metadata: ["nick": "\(next)"])
    await send(.nick, [next], charged: false)
  }

  /// While on an alternate nick, asks for the configured one every `nickReclaimSeconds` (and at once when its
  /// holder leaves, see `inbound`).
  func reclaimNickIfDue(now: ContinuousClock.Instant, force: Bool = false) async {
    guard connection.registration.registered,
      !IRCCaseMapping.equal(connection.registration.currentNick, configuration.nick)
    else { return }
    guard connection.keepalive.reclaimDue(now: now, every: .seconds(configuration.nickReclaimSeconds), force: force)
    else { return }
    await send(.nick, [configuration.nick])
  }

  // MARK: After 001

  func didRegister(_ message: IRCMessage) async {
    if let sasl = configuration.sasl, !connection.registration.saslSucceeded {
      // A server that welcomes us without SASL (one without CAP): this is not the registration configured.
      disconnectForSASL(.saslUnavailable(mechanism: sasl.mechanism.rawValue, offered: nil))
      return
    }
    connection.registration.registered = true
    history.registered()
    publishConnectionState()
    if let nick = message.parameter(0) { connection.registration.currentNick = nick }
    // "Welcome to the … Network nick!user@host": the full prefix others will see, to size lines exactly.
    if let last = message.parameters.last?.split(separator: " ").last, last.contains("!"), last.contains("@"),
      let prefix = try? IRCPrefix(parsing: last)
    {
      learnSelf(prefix)
    }
    logger.info(
      "registered",
      metadata: [
        "nick": "\(connection.registration.currentNick)",
        "account": "\(connection.registration.loggedInAccount ?? "-")",
      ])
    if mode == .probe {
      await finishProbe()
      return
    }
    await identifyWithNickServIfNeeded()
    for channel in configuration.channels { await join(channel.name) }
    connection.keepalive.registered(at: clock.now)
    wakeWriter()
  }

  /// SASL with `nickServPassword`, which the config did not ask for, failed: register anyway, and IDENTIFY after.
  private func saslWithNickServPasswordFailed(_ numeric: Int, _ message: IRCMessage) async {
    guard connection.registration.saslInProgress else { return }
    logger.warning(
      "SASL login with the NickServ password failed; identifying after registering",
      metadata: ["numeric": "\(numeric)", "message": "\(message.parameters.last ?? "")"])
    await endCapabilityNegotiation()
  }

  /// The SASL login to attempt: the configured one, else PLAIN with `nickServPassword` (unless `nickServSASL` is
  /// false), nil when neither.
  var saslCredentials: IRCTransportConfiguration.SASL? {
    if let sasl = configuration.sasl { return sasl }
    guard configuration.nickServSASL, let password = configuration.nickServPassword, !password.isEmpty else {
      return nil
    }
    return .init(mechanism: .plain, account: configuration.nick, password: password)
  }

  /// When `nickServPassword` is configured (and not empty) and SASL did not log the bot in: IDENTIFY to
  /// `NickServ@<servicesServer>`, or, without that, `WHOIS NickServ` first (`identify(after:)` reads the verdict).
  private func identifyWithNickServIfNeeded() async {
    guard !connection.registration.saslSucceeded, let password = configuration.nickServPassword, !password.isEmpty
    else { return }
    if let server = configuration.servicesServer, !server.isEmpty {
      await identify(to: "\(IRCServicesCheck.nick)@\(server)", password: password)
      return
    }
    connection.registration.services.start()
    if let whois = try? IRCMessage(command: .whois, parameters: [IRCServicesCheck.nick]) { await write(whois) }
  }

  /// A reply of the `WHOIS NickServ` the bot asked before identifying: once it ends, IDENTIFY to the services'
  /// NickServ, or say in the log why the password was not sent.
  func readServicesWhois(_ numeric: Int, _ message: IRCMessage) async {
    guard let verdict = connection.registration.services.read(numeric, message) else { return }
    guard let password = configuration.nickServPassword, !password.isEmpty else { return }
    switch verdict {
    case .service(let target):
      await identify(to: target, password: password)
    case .notService(let reason):
      logger.warning(
        "NickServ password not sent: NickServ is not the network's services here; set servicesServer if it is",
        metadata: ["reason": "\(reason)"])
    }
  }

  private func identify(to target: String, password: String) async {
    let account = configuration.sasl?.account ?? configuration.nick
    if let identify = try? IRCMessage(command: .privmsg, parameters: [target, "IDENTIFY \(account) \(password)"]) {
      logger.info("identifying with NickServ", metadata: ["account": "\(account)", "target": "\(target)"])
      await write(identify)
    }
  }

  /// JOIN with the configured key, unless a join is already under way.
  func join(_ channel: String) async {
    let folded = IRCCaseMapping.fold(channel)
    guard connection.membership.channels[folded] == nil, !connection.membership.joining.contains(folded) else { return }
    connection.membership.joining.insert(folded)
    let key = configuration.channels.first { IRCCaseMapping.equal($0.name, channel) }?.key
    let parameters = key.map { [channel, $0] } ?? [channel]
    if let message = try? IRCMessage(command: .join, parameters: parameters) { await write(message) }
  }

  /// Remembers our own `user@host` as others see it (from 001, JOIN echoes, CHGHOST), for line sizing.
  func learnSelf(_ prefix: IRCPrefix) {
    guard IRCCaseMapping.equal(prefix.name, connection.registration.currentNick) else { return }
    if let user = prefix.user { connection.registration.selfUser = user }
    if let host = prefix.host { connection.registration.selfHost = host }
  }
}
