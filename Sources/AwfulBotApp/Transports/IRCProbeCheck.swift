import ChatBridge
import IRCTransport

/// `awfulbot check` for an IRC transport: one connection that registers and quits (`IRCRegistrationProbe`), turned
/// into a line that names the config keys to change. Secrets never appear: the lines are built from the nick, the
/// account, the address and the server's own messages.
enum IRCProbeCheck {
  static func run(_ configuration: IRCTransportConfiguration, context: TransportBuildContext) async -> CheckResult {
    let result = await IRCRegistrationProbe.run(configuration, logger: context.logger)
    return checkResult(
      result, configuration: configuration, name: "irc \(configuration.name)", transportName: configuration.name)
  }

  static func checkResult(
    _ result: IRCProbeResult, configuration: IRCTransportConfiguration, name: String, transportName: String
  ) -> CheckResult {
    let address = HostPort(host: configuration.host, port: configuration.port).description
    switch result {
    case .registered(let registration):
      return registered(registration, configuration: configuration, address: address, name: name)
    case .failed(let failure):
      let (detail, fix) = explain(
        failure, configuration: configuration, address: address, transportName: transportName)
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
    return CheckResult(.pass, name, detail: detail)
  }

  /// The failure in words, and the config keys (or the outside thing) to look at. A SASL failure is told in the
  /// words `awfulbot run` stops with (`IRCTransportError`).
  static func explain(
    _ failure: IRCConnectionFailure, configuration: IRCTransportConfiguration, address: String,
    transportName: String
  ) -> (detail: String, fix: String) {
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
      let detail =
        IRCTransportError(startupFailure: failure, configuration: configuration)?.description
        ?? "SASL \(mechanism.rawValue) failed (\(numeric))"
      let server = "the server answered \(numeric)" + (message.isEmpty ? "" : " (\(message))")
      let variable = TransportSettings.environmentVariable(transport: transportName, key: "sasl.password")
      let fix =
        mechanism == .external
        ? "\(server); add the client certificate's fingerprint to the services account (NickServ CERT ADD)"
        : "\(server); the account name or its password is wrong (set the password in the config or in \(variable))"
      return (detail, fix)
    case .saslUnavailable:
      let detail =
        IRCTransportError(startupFailure: failure, configuration: configuration)?.description
        ?? "\(failure) at \(address)"
      return (detail, "\(failure) at \(address); is server right? remove sasl for a network without SASL")
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
