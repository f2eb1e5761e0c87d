/// Where an outbox row is in its life.
package enum OutboxState: String, Codable, Sendable, Hashable, CaseIterable {
  /// Waiting to be sent (possibly after a retry delay).
  case pending
  /// The transport returned a receipt.
  case delivered
  /// The transport said it will never succeed (`ChatSendError.permanent`); kept with the reason.
  case failed
  /// Gave up after too many retryable failures; kept and counted.
  case dead
  /// Never sent: the process died twice while the row was in hand (the poison-message guard, see
  /// `StoreTransaction.recoverInterruptedSends`). Kept apart from `failed` and `dead`, which a chat service decided:
  /// this one is the bot's own fault, for an operator to look at, and no retry of the service's would help.
  case parked
}
