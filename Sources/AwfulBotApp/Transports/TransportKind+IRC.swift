import BotCore
import ChatBridge
import IRCTransport

extension TransportKind {
  /// An IRC connection (`IRCTransport`). The config writes the server as `server: "host:port"` and channels as
  /// names or `{"name", "key"}`; `prepare` turns them into `IRCTransportConfiguration`'s `host`, `port` and
  /// channel objects.
  package static let irc: TransportKind = TransportKind(
    type: .irc, summary: "a nick on an IRC network",
    options: [
      "server": .string, "tls": .bool, "caFile": .string, "nick": .string, "alternateNicks": .strings,
      "username": .string, "realname": .string, "sasl": .custom, "clientCertificateFile": .string,
      "clientKeyFile": .string, "nickServPassword": .secret, "channels": .custom, "rejoinOnKick": .bool,
      "relayAs": .string, "relayStyle": .string, "editNotices": .strings, "linesPerMessage": .integer,
      "floodBurst": .integer,
      "floodIntervalSeconds": .number,
      "mircFormatting": .bool, "titleColour": .integer, "admins": .strings, "members": .strings,
      "channelRoles": .custom,
      "quitMessage": .string, "pingIntervalSeconds": .number, "pingTimeoutSeconds": .number,
      "reconnectDelaySeconds": .number, "maximumReconnectDelaySeconds": .number, "reconnectJitter": .number,
      "nickReclaimSeconds": .number, "sendWaitSeconds": .number, "connectTimeoutSeconds": .number,
      "registrationTimeoutSeconds": .number,
    ],
    requiredOptions: ["server", "nick"], secretKeys: ["sasl.password", "nickServPassword"],
    check: checkIRC, prepare: prepareIRC,
    make: { settings, context in
      try IRCTransport(configuration: configuration(settings, context: context), logger: context.logger)
    },
    probe: { settings, context in await IRCProbeCheck.run(settings, context: context) },
    liveOptions: IRCTransport.liveKeys,
    reconfigure: { transport, _, next, context in
      guard let transport = transport as? IRCTransport else { return [] }
      return try await transport.reconfigure(to: configuration(next, context: context))
    },
    ownRooms: { settings, context in try configuration(settings, context: context).channels.map(\.name) })

  /// The transport module's configuration from the settings, with what the application adds: the CTCP VERSION
  /// answer and where the settings are in the config file (for messages that name a key).
  static func configuration(_ settings: TransportSettings, context: TransportBuildContext) throws
    -> IRCTransportConfiguration
  {
    var configuration = try settings.decodeOptions(
      IRCTransportConfiguration.self, kind: .irc, environment: context.environment)
    configuration.versionReply = "AwfulBot \(AppInfo.version)"
    configuration.settingsPath = context.settingsPath
    return configuration
  }

  private static func checkIRC(_ options: [String: JSONValue], path: String, reader: inout ConfigReader) {
    func at(_ key: String) -> String { ConfigReader.join(path, key) }
    if case .string(let server)? = options["server"], HostPort(parsing: server) == nil || server.hasSuffix(":0") {
      reader.report(at("server"), "expected host:port, got \"\(server)\"")
    }
    var nicks: [(String, String)] = []
    if case .string(let nick)? = options["nick"] { nicks.append((at("nick"), nick)) }
    if case .array(let alternates)? = options["alternateNicks"] {
      for (index, item) in alternates.enumerated() {
        if case .string(let nick) = item { nicks.append(("\(at("alternateNicks"))[\(index)]", nick)) }
      }
    }
    // The transport's own checks, so the config accepts exactly the names the transport will use.
    for (keyPath, nick) in nicks {
      do { _ = try IRCNick(nick) } catch { reader.report(keyPath, error.description) }
    }
    checkChannels(options["channels"], at: at("channels"), reader: &reader)
    checkChannelRoles(options["channelRoles"], at: at("channelRoles"), reader: &reader)
    checkSASL(options, path: path, reader: &reader)
    if case .string(let relay)? = options["relayAs"], !["notice", "privmsg"].contains(relay) {
      reader.report(at("relayAs"), "expected notice or privmsg, got \"\(relay)\"")
    }
    if case .string(let style)? = options["relayStyle"], IRCRenderer.RelayStyle(rawValue: style) == nil {
      let styles = IRCRenderer.RelayStyle.allCases.map(\.rawValue).joined(separator: " or ")
      reader.report(at("relayStyle"), "expected \(styles), got \"\(style)\"")
    }
    if case .number(let colour)? = options["titleColour"], !(0...98).contains(colour) {
      reader.report(at("titleColour"), "expected a colour number 0–98, got \(Int(colour))")
    }
    for key in ["linesPerMessage", "floodBurst"] {
      if case .number(let value)? = options[key], value < 1 { reader.report(at(key), "must be at least 1") }
    }
    for key in [
      "pingIntervalSeconds", "pingTimeoutSeconds", "reconnectDelaySeconds", "maximumReconnectDelaySeconds",
      "nickReclaimSeconds", "sendWaitSeconds", "connectTimeoutSeconds", "registrationTimeoutSeconds",
    ] {
      if case .number(let value)? = options[key], value <= 0 { reader.report(at(key), "must be more than 0 seconds") }
    }
    if case .number(let value)? = options["floodIntervalSeconds"], value < 0 {
      reader.report(at("floodIntervalSeconds"), "must be 0 or more")
    }
    if (options["clientCertificateFile"] == nil) != (options["clientKeyFile"] == nil) {
      reader.report(path, "clientCertificateFile and clientKeyFile go together")
    }
  }

  private static func checkChannels(_ value: JSONValue?, at path: String, reader: inout ConfigReader) {
    guard let value else { return }
    guard case .array(let channels) = value else {
      reader.report(path, "expected a list of channels, got \(value.kindName)")
      return
    }
    for (index, channel) in channels.enumerated() {
      let itemPath = "\(path)[\(index)]"
      switch channel {
      case .string(let name):
        if let problem = channelProblem(name) { reader.report(itemPath, problem) }
      case .object:
        guard let members = reader.object(channel, at: itemPath, known: ["name", "key"]) else { continue }
        if let name = reader.string(members, "name", at: itemPath, required: true), let problem = channelProblem(name) {
          reader.report("\(itemPath).name", problem)
        }
        if let key = reader.string(members, "key", at: itemPath),
          key.isEmpty || key.contains(" ") || key.contains(",")
        {
          reader.report("\(itemPath).key", "must not be empty or contain spaces or commas")
        }
      default:
        reader.report(itemPath, "expected a channel name or {\"name\", \"key\"}, got \(channel.kindName)")
      }
    }
  }

  /// `{"o": "admin", "v": "member"}`: member mode letters to roles.
  private static func checkChannelRoles(_ value: JSONValue?, at path: String, reader: inout ConfigReader) {
    guard let value else { return }
    guard case .object(let entries) = value else {
      reader.report(path, "expected an object of mode letters to roles, like {\"o\": \"admin\", \"v\": \"member\"}")
      return
    }
    for (letter, role) in entries.sorted(by: { $0.key < $1.key }) where !ConfigReader.isComment(letter) {
      let itemPath = ConfigReader.join(path, letter)
      if letter.count != 1 || !(letter.first?.isASCII ?? false) || !(letter.first?.isLetter ?? false) {
        reader.report(itemPath, "expected a channel member mode letter (q, a, o, h, v)")
      }
      switch role {
      case .string(let name) where Role(name: name) != nil: break
      case .string(let name): reader.report(itemPath, "expected admin, member or viewer, got \"\(name)\"")
      default: reader.report(itemPath, "expected admin, member or viewer, got \(role.kindName)")
      }
    }
  }

  private static func channelProblem(_ name: String) -> String? {
    do {
      _ = try IRCChannelName(name)
      return nil
    } catch {
      return error.description
    }
  }

  private static func checkSASL(_ options: [String: JSONValue], path: String, reader: inout ConfigReader) {
    let saslPath = ConfigReader.join(path, "sasl")
    guard let sasl = reader.object(options["sasl"], at: saslPath, known: ["mechanism", "account", "password"]) else {
      return
    }
    let mechanism = reader.string(sasl, "mechanism", at: saslPath) ?? "PLAIN"
    switch mechanism {
    case "PLAIN":
      let account = reader.string(sasl, "account", at: saslPath)
      if account?.isEmpty ?? true, !reader.hasProblem(at: "\(saslPath).account") {
        reader.report("\(saslPath).account", "missing (SASL PLAIN needs the services account)")
      }
      if reader.checksSecrets, sasl["password"] == nil || sasl["password"] == .null,
        !reader.hasProblem(at: "\(saslPath).password")
      {
        reader.report("\(saslPath).password", "missing (or set $AWFULBOT_<NAME>_SASL_PASSWORD)")
      } else {
        _ = reader.string(sasl, "password", at: saslPath)
      }
    case "EXTERNAL":
      if options["clientCertificateFile"] == nil {
        reader.report(saslPath, "SASL EXTERNAL needs clientCertificateFile and clientKeyFile")
      }
      if case .bool(false)? = options["tls"] { reader.report(saslPath, "SASL EXTERNAL needs tls") }
    default:
      reader.report("\(saslPath).mechanism", "expected PLAIN or EXTERNAL, got \"\(mechanism)\"")
    }
  }

  private static func prepareIRC(_ options: [String: JSONValue]) -> [String: JSONValue] {
    var out = options
    if case .string(let server)? = out.removeValue(forKey: "server"), let address = HostPort(parsing: server) {
      out["host"] = .string(address.host)
      out["port"] = .number(Double(address.port))
    }
    if case .object(let roles)? = out["channelRoles"] {
      out["channelRoles"] = .object(roles.filter { !ConfigReader.isComment($0.key) })
    }
    if case .array(let channels)? = out["channels"] {
      out["channels"] = .array(
        channels.map { channel in
          if case .string(let name) = channel { return .object(["name": .string(name)]) }
          return channel
        })
    }
    return out
  }
}
