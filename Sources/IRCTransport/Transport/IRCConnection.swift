import ChatBridge
import NIOCore

/// Everything that belongs to one connection, made new when a connection opens and replaced by a closed one when it
/// ends (as swift-nio makes a channel handler's state with its channel): the socket, what registration negotiated,
/// the channels joined, the timers, the sends written and their acknowledgements, the flood bucket, why it failed.
/// A field added here starts fresh on every reconnect without anyone remembering to reset it; what must outlive a
/// connection lives on `IRCClient` with the reason beside it.
struct IRCConnection: Sendable {
  /// The open socket.
  struct Link: Sendable {
    let writer: NIOAsyncChannelOutboundWriter<String>
    let channel: any Channel
  }

  /// Counts connections (1 for the first), so a loop started for one connection can tell it is still current.
  let id: Int
  /// The socket; nil before the first connection and once this one has closed.
  let link: Link?
  /// Registration: capabilities, SASL, nick, ISUPPORT.
  var registration: IRCRegistrationState
  /// The channels joined, being joined, refused.
  var membership = IRCChannelMembership()
  var keepalive: IRCKeepalive
  /// Sends written on this connection and how each will be acknowledged.
  var ledger: IRCSendLedger<CheckedContinuation<DeliveryReceipt, any Error>>
  /// Flood control: the server counts lines per connection, so a new one starts with a full bucket.
  let bucket: IRCTokenBucket
  /// Why this connection is failing: the first reason wins (see `noteFailure`).
  private(set) var failure: IRCConnectionFailure?
  /// The line being handled, while `receive` runs (see `IRCClient.linkDescription`).
  var lineInHand: String?
  /// Numbers the PING tokens written on this connection (keepalive and acknowledgements).
  private var tokenCounter = 0

  init(
    id: Int, link: Link?, nick: String, openedAt: ContinuousClock.Instant, bucket: IRCTokenBucket
  ) {
    self.id = id
    self.link = link
    self.registration = IRCRegistrationState(nick: nick)
    self.keepalive = IRCKeepalive(openedAt: openedAt)
    self.ledger = IRCSendLedger(connectionID: id)
    self.bucket = bucket
  }

  /// The next connection, opened on `link`: a new value numbered one more, with nothing of this one.
  func reopened(on link: Link, nick: String, at now: ContinuousClock.Instant, bucket: IRCTokenBucket) -> IRCConnection {
    IRCConnection(id: id + 1, link: link, nick: nick, openedAt: now, bucket: bucket)
  }

  /// What stands once this connection has closed: a new value under the same number, without a socket, not
  /// registered, in no channel, with nothing in flight (the caller fails this one's `ledger.unsettled`).
  func closed(nick: String, at now: ContinuousClock.Instant) -> IRCConnection {
    IRCConnection(id: id, link: nil, nick: nick, openedAt: now, bucket: bucket)
  }

  /// Whether `id` names this connection and it is still open: a writer or keepalive loop of an older one stops.
  func isOpen(_ id: Int) -> Bool { link != nil && self.id == id }

  /// Remembers why this connection is failing. The first reason wins: a 465 explains the ERROR and the EOF that
  /// follow it better than they do.
  mutating func noteFailure(_ failure: IRCConnectionFailure) {
    if self.failure == nil { self.failure = failure }
  }

  /// A PING token unique on this connection (its PONG comes back on the same socket).
  mutating func nextToken(_ kind: String) -> String {
    tokenCounter += 1
    return "awfulbot-\(kind)-\(tokenCounter)"
  }
}
