import NIOCore

/// The probe's ending: once welcomed, say what registered and leave.
extension IRCClient {
  func finishProbe() async {
    // With SASL configured, only a successful login gets this far (see `didRegister`).
    probeRegistration = IRCProbeRegistration(
      nick: connection.registration.currentNick, refusedNicks: connection.registration.refusedNicks,
      account: connection.registration.saslSucceeded ? connection.registration.loggedInAccount : nil,
      saslMechanism: connection.registration.saslSucceeded ? configuration.sasl?.mechanism.rawValue : nil)
    shuttingDown = true
    await send(.quit, [IRCTextSanitizer.singleLine(configuration.quitMessage)], charged: false)
    // The server answers QUIT with ERROR and closes; if it does not, close anyway rather than wait.
    guard let channel = connection.link?.channel else { return }
    channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
  }

  func probeResult() -> IRCProbeResult {
    if let probeRegistration { return .registered(probeRegistration) }
    return .failed(connection.failure ?? history.lastFailure ?? .closed)
  }
}
