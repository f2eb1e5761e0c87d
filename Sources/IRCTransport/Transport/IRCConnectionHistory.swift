import ChatBridge

/// What the transport remembers across connections about connecting: how many times the bot registered, why the
/// last connection failed (the reason shown while reconnecting, and the startup SASL verdict), the state last told
/// on the event stream, and whether the transport has stopped for good. Unlike `IRCConnection`, this must outlive
/// each connection: readiness, `status` and the reconnect metric describe the transport, not one socket.
struct IRCConnectionHistory: Sendable {
  /// How many connections got as far as 001.
  private(set) var registrations = 0
  /// Why the last connection failed or ended; nil once a connection registers.
  private(set) var lastFailure: IRCConnectionFailure?
  /// The state last told on the event stream (`ChatEvent.connection`).
  private(set) var published: ConnectionState?
  /// `run()` has returned: the transport will not connect again.
  private(set) var stopped = false

  /// A connection registered (001): the failures before it are over.
  mutating func registered() {
    registrations += 1
    lastFailure = nil
  }

  /// A connection could not open, or it ended (nil: it closed without a reason of its own).
  mutating func failed(_ failure: IRCConnectionFailure?) {
    lastFailure = failure ?? .closed
  }

  mutating func stop() { stopped = true }

  /// Where the transport stands, given the nick it is registered under on the current connection (nil: not
  /// registered).
  func state(registeredAs nick: String?) -> IRCConnectionState {
    if stopped { return .stopped }
    if let nick { return .registered(nick: nick) }
    if let lastFailure { return .reconnecting(lastFailure) }
    return .connecting
  }

  /// The state to tell on the event stream, when it changed since it was last told (recorded as told); nil when
  /// nothing changed or the transport stopped (stopping is told by the transport, which knows why it stops).
  mutating func toPublish(_ state: IRCConnectionState) -> ConnectionState? {
    let current: ConnectionState
    switch state {
    case .registered: current = .connected
    case .connecting: current = .connecting
    case .reconnecting(let failure): current = .retrying(reason: "\(failure)")
    case .stopped: return nil
    }
    guard current != published else { return nil }
    published = current
    return current
  }

  /// The last failure while no connection has registered yet; the transport stops when it is a SASL refusal (the
  /// configured credentials are wrong for this network). nil once the bot has registered: then a SASL failure on a
  /// reconnect (services restarting) is retried.
  var failureBeforeFirstRegistration: IRCConnectionFailure? {
    registrations == 0 ? lastFailure : nil
  }
}
