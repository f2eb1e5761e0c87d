/// What a one-shot `IRCRegistrationProbe` found: registered (and how), or why not.
package enum IRCProbeResult: Sendable, Hashable {
  case registered(IRCProbeRegistration)
  case failed(IRCConnectionFailure)
}

/// A registration the probe completed before it quit.
package struct IRCProbeRegistration: Sendable, Hashable {
  /// The nick the server welcomed (an alternate when the configured one was taken).
  package var nick: String
  /// Nicks the server refused first (433 in use, 432 erroneous), in the order tried.
  package var refusedNicks: [String]
  /// The services account SASL logged in to (900), nil without SASL.
  package var account: String?
  /// The SASL mechanism that succeeded, nil when none was used.
  package var saslMechanism: String?

  package init(nick: String, refusedNicks: [String] = [], account: String? = nil, saslMechanism: String? = nil) {
    self.nick = nick
    self.refusedNicks = refusedNicks
    self.account = account
    self.saslMechanism = saslMechanism
  }
}
