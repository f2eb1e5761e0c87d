import ChatBridge

/// Why the IRC transport stopped for good instead of reconnecting. The description is the sentence the operator
/// sees (`awfulbot run` prints it and exits 78; `awfulbot check` shows the same line). Never carries a secret.
package enum IRCTransportError: ChatTransportStartupError, Sendable, Hashable, CustomStringConvertible {
  /// Every case is a login or a network the configuration names wrongly: reconnecting cannot fix it.
  package var isPermanent: Bool { true }

  /// The server refused the SASL login before the bot had ever registered: the account or its password (or, with
  /// EXTERNAL, the client certificate) is wrong, and reconnecting cannot fix that.
  case saslRefused(account: String, mechanism: IRCTransportConfiguration.SASL.Mechanism, settingsPath: String?)
  /// SASL is configured, but the network does not offer it (or not the configured mechanism).
  case saslUnavailable(
    account: String, mechanism: IRCTransportConfiguration.SASL.Mechanism, host: String, settingsPath: String?)

  /// The error for a connection that failed before the bot ever registered, when the failure is about SASL.
  package init?(startupFailure failure: IRCConnectionFailure, configuration: IRCTransportConfiguration) {
    guard let sasl = configuration.sasl else { return nil }
    let account = sasl.account.flatMap { $0.isEmpty ? nil : $0 } ?? configuration.nick
    switch failure {
    case .saslFailed:
      self = .saslRefused(account: account, mechanism: sasl.mechanism, settingsPath: configuration.settingsPath)
    case .saslUnavailable:
      self = .saslUnavailable(
        account: account, mechanism: sasl.mechanism, host: configuration.host, settingsPath: configuration.settingsPath)
    default:
      return nil
    }
  }

  package var description: String {
    switch self {
    case .saslRefused(let account, .plain, let path):
      "SASL login for account \(account) was refused: check \(Self.key("sasl.password", in: path))"
    case .saslRefused(let account, .external, let path):
      "SASL login for account \(account) was refused: check that the account accepts the certificate in "
        + "\(Self.key("clientCertificateFile", in: path)) (NickServ CERT ADD)"
    case .saslUnavailable(let account, let mechanism, let host, let path):
      "SASL login for account \(account) is not possible: \(host) offers no SASL \(mechanism.rawValue); check "
        + "\(Self.key("sasl", in: path)) (remove it for a network without SASL)"
    }
  }

  /// `transports[2].sasl.password`, or the bare key when the settings' place is not known.
  private static func key(_ key: String, in path: String?) -> String {
    path.map { "\($0).\(key)" } ?? key
  }
}
