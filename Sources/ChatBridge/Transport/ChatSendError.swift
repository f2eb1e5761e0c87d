/// Why a send failed, so the dispatcher knows whether to retry.
package enum ChatSendError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Try again later (rate limit, network, 5xx); `after` when the service said how long.
  case retryable(reason: String, after: Duration?)
  /// Will never succeed for this room (forbidden, room gone); the row fails with the reason.
  case permanent(reason: String)
  /// The room's reader cannot be reached now (an IRC account nobody is logged in as): the row waits and is tried
  /// again after `after`, without using up its attempts, however long they are away.
  case unreachable(reason: String, after: Duration)

  package var description: String {
    switch self {
    case .retryable(let reason, _): "temporary failure: \(reason)"
    case .permanent(let reason): "permanent failure: \(reason)"
    case .unreachable(let reason, _): "waiting: \(reason)"
    }
  }
}
