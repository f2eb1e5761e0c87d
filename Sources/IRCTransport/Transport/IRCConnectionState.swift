/// Where an IRC transport's connection stands, for readiness (`/readyz`), `status` and the reconnect metric.
package enum IRCConnectionState: Sendable, Hashable {
  /// Not registered yet, and nothing has failed so far (the first connection is under way, or `run` has not
  /// started).
  case connecting
  /// Registered (001 received) on the current connection.
  case registered(nick: String)
  /// Not registered because the last connection failed or ended; the transport is trying again.
  case reconnecting(IRCConnectionFailure)
  /// `run()` has returned: the transport will not connect again.
  case stopped
}
