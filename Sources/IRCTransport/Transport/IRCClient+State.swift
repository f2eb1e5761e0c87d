import ChatBridge

/// The connection state others may ask about: readiness, `status`, the reconnect count.
extension IRCClient {
  /// Remembers why the current connection is failing (the first reason wins, see `IRCConnection.noteFailure`).
  func noteFailure(_ failure: IRCConnectionFailure) {
    connection.noteFailure(failure)
  }

  func connectionState() -> IRCConnectionState {
    let registration = connection.registration
    return history.state(registeredAs: registration.registered ? registration.currentNick : nil)
  }

  /// Tells the engine the connection's state when it changed since it was last told (`ChatEvent.connection`).
  /// Stopping is told by the transport, which knows why it stops.
  func publishConnectionState() {
    if let changed = history.toPublish(connectionState()) { emit(.connection(changed)) }
  }

  /// How many times a connection got as far as 001.
  func registrationCount() -> Int { history.registrations }

  /// The open connection as the client sees it: for a test that finds a drop went unnoticed, whether the socket is
  /// still open and whether the read loop is stuck handling a line.
  func linkDescription() -> String {
    guard let link = connection.link else { return "no connection open" }
    let now = clock.now
    let inHand = connection.lineInHand.map { "handling “\($0)”" } ?? "waiting for a line"
    return
      "connection \(connection.id), open for \(now - connection.keepalive.openedAt), socket active: "
      + "\(link.channel.isActive), last line \(now - connection.keepalive.lastReceived) ago, read loop \(inHand)"
  }

  func markStopped() { history.stop() }

  /// The transport's reason to stop for good: SASL failed (refused, or not offered) before the bot had ever
  /// registered, so the configured credentials are wrong for this network and reconnecting cannot help. nil
  /// otherwise; once the bot has registered, a SASL failure on a reconnect (services restarting) is retried.
  func startupSASLError() -> IRCTransportError? {
    guard let failure = history.failureBeforeFirstRegistration else { return nil }
    return IRCTransportError(startupFailure: failure, configuration: configuration)
  }

  // Views of the current connection, for tests and diagnostics.

  /// The channels of the current connection.
  var membership: IRCChannelMembership { connection.membership }

  /// The current connection's sends being written or waiting for their acknowledgement.
  var inFlight: [Int: IRCSendLedger<CheckedContinuation<DeliveryReceipt, any Error>>.InFlight] {
    connection.ledger.inFlight
  }
}
