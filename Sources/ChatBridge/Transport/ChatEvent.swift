/// Something a transport tells the engine.
package enum ChatEvent: Sendable, Hashable {
  /// Someone wrote in a room the bot is in, or to the bot directly.
  case message(IncomingMessage)
  /// Someone reacted to a message (transports with `reactions` only).
  case reaction(IncomingReaction)
  /// The bot's own membership of a room changed.
  case membership(MembershipChange)
  /// The connection to the service changed state (each change once, in order).
  case connection(ConnectionState)
}
