import IRCTransport

/// `awfulbot check` for an IRC transport: one connection that registers and quits (`IRCRegistrationProbe`), turned
/// into a line that names the config keys to change. Secrets never appear: the lines are built from the nick, the
/// account, the address and the server's own messages.
enum IRCProbeCheck {
  static func run(_ settings: TransportSettings, context: TransportBuildContext) async -> CheckResult {
    let name = "irc \(settings.resolvedName)"
    let configuration: IRCTransportConfiguration
    do {
      configuration = try settings.decodeOptions(
        IRCTransportConfiguration.self, kind: .irc, environment: context.environment)
    } catch let error as ConfigurationError {
      return CheckResult(
        .fail, name, detail: error.problems.joined(separator: "; "), fix: "fix the transport's keys in the config")
    } catch {
      return CheckResult(.fail, name, detail: "\(error)", fix: "fix the transport's keys in the config")
    }
    let result = await IRCRegistrationProbe.run(configuration, logger: context.logger)
    return checkResult(result, configuration: configuration, name: name)
  }

  static func checkResult(
    _ result: IRCProbeResult, configuration: IRCTransportConfiguration, name: String
  ) -> CheckResult {
    let address = HostPort(host: configuration.host, port: configuration.port).description
    switch result {
    case .registered(let registration):
      return registered(registration, configuration: configuration, address: address, name: name)
    case .failed(let failure):
      let (detail, fix) = explain(failure, configuration: configuration, address: address)
      return CheckResult(.fail, name, detail: detail, fix: fix)
    }
  }

  private static func registered(
    _ registration: IRCProbeRegistration, configuration: IRCTransportConfiguration, address: String, name: String
  ) -> CheckResult {
    var how = [configuration.tls ? "TLS" : "plain TCP"]
    if let mechanism = registration.saslMechanism {
      how.append("SASL \(mechanism)" + (registration.account.map { " as \($0)" } ?? ""))
    }
    var detail = "registered as \(registration.nick) on \(address) (\(how.joined(separator: ", ")))"
    if !registration.refusedNicks.isEmpty {
      detail += "; \(registration.refusedNicks.joined(separator: ", ")) refused (in use?)"
    }
    guard registration.saslUnavailable, let sasl = configuration.sasl else {
      return CheckResult(.pass, name, detail: detail)
    }
    detail += "; the server does not offer SASL \(sasl.mechanism.rawValue)"
    return CheckResult(
      .warn, name, detail: detail,
      fix: "the bot will register without logging in (and try NickServ IDENTIFY with the password); remove sasl if "
        + "this network has no SASL")
  }

  /// The failure in words, and the config keys (or the outside thing) to look at.
  static func explain(_ failure: IRCConnectionFailure, configuration: IRCTransportConfiguration, address: String)
    -> (detail: String, fix: String)
  {
    let tlsHint = configuration.tls ? "TLS ports are usually 6697" : "plain-text ports are usually 6667"
    switch failure {
    case .refused:
      return (
        "connection refused at \(address)",
        "is the server right? check server (host:port) and tls (\(tlsHint)), and that the IRC server is running"
      )
    case .connectTimedOut:
      return (
        "\(failure) from \(address)",
        "check server, DNS and that this host may connect out to that port (firewall); connectTimeoutSeconds "
          + "raises the wait"
      )
    case .unresolved(let host):
      return ("cannot resolve \(host)", "check the host name in server")
    case .tlsHandshake:
      let fix =
        configuration.caFile.map {
          "check that caFile (\($0)) is the CA that signed the server's certificate and that \(address) speaks TLS"
        } ?? "set caFile for a private CA (or tls: false for a plain-text port)"
      return ("\(failure) at \(address)", fix)
    case .tlsSetup:
      return ("\(failure)", "check caFile, clientCertificateFile and clientKeyFile: readable PEM files")
    case .saslFailed(let numeric, let message):
      let mechanism = configuration.sasl?.mechanism ?? .plain
      let fix =
        mechanism == .external
        ? "check that the services account accepts the client certificate's fingerprint (NickServ CERT ADD)"
        : "check sasl.account and sasl.password"
      return ("SASL \(mechanism.rawValue) failed (\(numeric))" + (message.isEmpty ? "" : ": \(message)"), fix)
    case .rejected(let numeric, let message):
      let fix =
        switch numeric {
        case 465: "this host or nick is banned on the network; nothing in the config can fix that"
        case 464: "the server wants a connection password, which the bot does not support"
        default: "the server does not accept clients from this host"
        }
      return ("the server refused the connection (\(numeric)): \(message)", fix)
    case .serverError(let reason):
      return (
        "the server closed the link before registering: \(reason)",
        "read the server's reason; for a connection limit or a ban ask the network"
      )
    case .registrationTimedOut:
      return (
        "connected to \(address) but \(failure)",
        "is tls right for this port (\(tlsHint))? a slow network may need a larger registrationTimeoutSeconds"
      )
    case .pingTimedOut, .closed, .other:
      return (
        "\(failure) at \(address) before registering",
        "is tls right for this port (\(tlsHint))? run with --log-level debug for the server's lines"
      )
    }
  }
}
