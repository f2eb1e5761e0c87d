import IRCTransport

/// Readiness for IRC: ready once registered (001); otherwise connecting, or reconnecting with the reason the last
/// connection failed.
extension IRCTransport: ConnectionStateReporting {
  package func connectionProblem() async -> String? {
    switch await connectionState() {
    case .registered: nil
    case .connecting: "connecting"
    case .reconnecting(let failure): "reconnecting (\(failure))"
    case .stopped: "stopped"
    }
  }

  /// Every registration (001) counts: the first is the connection, the others reconnects.
  package func connectionCount() async -> Int? { await registrationCount() }
}
