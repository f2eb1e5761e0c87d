/// The timers of one connection: when it opened (registration must finish in time), when the server last sent a
/// line, the keepalive PING waiting for its answer, and when the configured nick was last asked for. Made new with
/// each connection (`IRCConnection`), so a reconnect never inherits a PING sent on the old socket or a quiet spell
/// measured from it. Time is passed in, so the verdicts are tested without waiting.
struct IRCKeepalive: Sendable {
  /// What the keepalive loop does on a tick.
  enum Verdict: Sendable, Equatable {
    /// Nothing is due.
    case quiet
    /// The link has been quiet for the interval: send a PING (now counted as waiting for its answer).
    case ping
    /// Our PING went unanswered for the timeout: the link is dead (a silent NAT drop, a hung server).
    case pingTimedOut
    /// The server never welcomed the bot (001) within the registration timeout.
    case registrationTimedOut
  }

  let openedAt: ContinuousClock.Instant
  /// When the server last sent anything; any line shows the link is alive.
  private(set) var lastReceived: ContinuousClock.Instant
  /// When our keepalive PING went out, while its answer (or any line) has not come.
  private(set) var pingSentAt: ContinuousClock.Instant?
  /// When the configured nick was last asked for (see `reclaimDue`); nil until registered.
  private(set) var lastReclaim: ContinuousClock.Instant?

  init(openedAt: ContinuousClock.Instant) {
    self.openedAt = openedAt
    self.lastReceived = openedAt
  }

  /// A line arrived: the link is alive, and whatever PING was out has its answer.
  mutating func received(at now: ContinuousClock.Instant) {
    lastReceived = now
    pingSentAt = nil
  }

  /// The verdict for a tick at `now`. Registration is bounded first; then an unanswered PING past `timeout` ends
  /// the link; else a registered link quiet for `interval` gets a PING, which this records as sent.
  mutating func check(
    now: ContinuousClock.Instant, registered: Bool, interval: Duration, timeout: Duration,
    registrationTimeout: Duration
  ) -> Verdict {
    if !registered, now - openedAt > registrationTimeout { return .registrationTimedOut }
    if let sent = pingSentAt { return now - sent > timeout ? .pingTimedOut : .quiet }
    guard registered, now - lastReceived > interval else { return .quiet }
    pingSentAt = now
    return .ping
  }

  /// Registered: the nick is next asked for one full `every` from now (the server just chose it).
  mutating func registered(at now: ContinuousClock.Instant) {
    lastReclaim = now
  }

  /// Whether to ask for the configured nick now: once every `every`, or at once when `force`d (its holder left);
  /// records the attempt when it says yes.
  mutating func reclaimDue(now: ContinuousClock.Instant, every: Duration, force: Bool = false) -> Bool {
    if !force, let last = lastReclaim, now - last < every { return false }
    lastReclaim = now
    return true
  }
}
