import BotCore
import ChatBridge
import IRCTransport

extension TransportKind {
  /// An IRC connection (`IRCTransport`). The config writes the server as `server: "host:port"` and channels as
  /// names or `{"name", "key"}`; `prepare` turns them into `IRCTransportConfiguration`'s `host`, `port` and
  /// channel objects.
  package static let irc: TransportKind = TransportKind(
    type: .irc, summary: "a nick on an IRC network",
    // The transport's own keys, with `server` (host:port) in place of `host` and `port`; their shapes are checked
    // by decoding (`checkIRC`), but for a secret's, which may be {"env": "NAME"}.
    options: Dictionary(
      uniqueKeysWithValues: (["server"] + IRCTransportConfiguration.configurationKeys)
        .filter { !["name", "host", "port"].contains($0) }
        .map { ($0, $0 == "nickServPassword" ? OptionType.secret : .custom) }),
    requiredOptions: ["server", "nick"], secretKeys: ircSecretKeys,
    check: checkIRC, prepare: prepareIRC,
    roleSettings: { settings in
      let configuration = try settings.decodeOptions(
        IRCTransportConfiguration.self, kind: .irc, environment: [:], secretsRequired: false)
      return .irc(
        admins: configuration.admins, members: configuration.members, channelRoles: configuration.channelRoles,
        channels: configuration.channels.map(\.name))
    },
    make: { settings, context in
      try IRCTransport(configuration: configuration(settings, context: context), logger: context.logger)
    },
    probe: { settings, context in await IRCProbeCheck.run(settings, context: context) },
    liveOptions: IRCTransport.liveKeys,
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

  static let ircSecretKeys = ["sasl.password", "nickServPassword"]

  /// The server's `host:port`, then the transport's own checks (`IRCTransportConfiguration`'s decoding, which
  /// `validate()` shares), each problem at its key path in the config file: the config accepts exactly what the
  /// transport will run with, checked in one place.
  private static func checkIRC(_ options: [String: JSONValue], path: String, reader: inout ConfigReader) {
    func at(_ key: String) -> String { key.isEmpty ? path : ConfigReader.join(path, key) }
    if case .string(let server)? = options["server"], HostPort(parsing: server) == nil || server.hasSuffix(":0") {
      reader.report(at("server"), "expected host:port, got \"\(server)\"")
    }
    var prepared = prepareIRC(options)
    // The channels as written (names or objects), so a problem names `channels[0]` or `channels[0].name` as the
    // file has it; the decoder takes both.
    prepared["channels"] = options["channels"]
    do {
      _ = try JSONValue.object(prepared).decode(IRCTransportConfiguration.self)
    } catch let error as IRCConfigurationError {
      for problem in error.keyedProblems {
        // `host` and `port` are written as `server`, whose problems are said above.
        let key = ["host", "port"].contains(problem.topKey) ? "server" : problem.key
        var reason = problem.reason
        if ircSecretKeys.contains(key), reason.hasPrefix("missing") {
          // Without secrets (`status`), a secret left to the environment is not missing.
          guard reader.checksSecrets else { continue }
          reason = "missing (or set $AWFULBOT_<NAME>_\(ircSecretVariableSuffix(key)))"
        }
        guard !reader.hasProblem(at: at(key)) else { continue }
        reader.report(at(key), reason)
      }
    } catch {
      reader.report(path, "\(error)")
    }
  }

  /// `SASL_PASSWORD` for `sasl.password`: the end of the variable a secret left out is read from.
  private static func ircSecretVariableSuffix(_ key: String) -> String {
    let prefix = "AWFULBOT_IRC_"
    return String(TransportSettings.environmentVariable(transport: "irc", key: key).dropFirst(prefix.count))
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
