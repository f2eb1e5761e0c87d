import ChatBridge

/// The connection state others may ask about: readiness, `status`, the reconnect count.
extension IRCClient {
  /// Remembers why this connection is failing. The first reason wins: a 465 explains the ERROR and the EOF that
  /// follow it better than they do.
  func noteFailure(_ failure: IRCConnectionFailure) {
    if connectionFailure == nil { connectionFailure = failure }
  }

  func connectionState() -> IRCConnectionState {
    if stopped { return .stopped }
    if registration.registered { return .registered(nick: registration.currentNick) }
    if let lastFailure { return .reconnecting(lastFailure) }
    return .connecting
  }

  /// Tells the engine the connection's state when it changed since it was last told (`ChatEvent.connection`).
  /// Stopping is told by the transport, which knows why it stops.
  func publishConnectionState() {
    let current: ConnectionState
    switch connectionState() {
    case .registered: current = .connected
    case .connecting: current = .connecting
    case .reconnecting(let failure): current = .retrying(reason: "\(failure)")
    case .stopped: return
    }
    guard current != publishedConnectionState else { return }
    publishedConnectionState = current
    emit(.connection(current))
  }

  /// How many times a connection got as far as 001.
  func registrationCount() -> Int { registrations }

  /// The open connection as the client sees it: for a test that finds a drop went unnoticed, whether the socket is
  /// still open and whether the read loop is stuck handling a line.
  func linkDescription() -> String {
    guard let link else { return "no connection open" }
    let now = clock.now
    let inHand = lineInHand.map { "handling “\($0)”" } ?? "waiting for a line"
    return
      "connection \(link.id), open for \(now - link.openedAt), socket active: \(link.channel.isActive), last line "
      + "\(now - lastReceived) ago, read loop \(inHand)"
  }

  func markStopped() { stopped = true }

  /// The transport's reason to stop for good: SASL failed (refused, or not offered) before the bot had ever
  /// registered, so the configured credentials are wrong for this network and reconnecting cannot help. nil
  /// otherwise; once the bot has registered, a SASL failure on a reconnect (services restarting) is retried.
  func startupSASLError() -> IRCTransportError? {
    guard registrations == 0, let failure = lastFailure else { return nil }
    return IRCTransportError(startupFailure: failure, configuration: configuration)
  }
}
